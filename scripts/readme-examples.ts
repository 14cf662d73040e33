import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { format } from "prettier";
import { launchSettingRows, type LaunchFlag } from "../src/automation/launch-settings.js";
import { CLIENT_OPTION_DOCS } from "../src/config/config.js";

/**
 * Code examples of the docs (README.md, ARCHITECTURE.md, docs/*.md) are files of the test
 * suite, compiled and run there. A marker `<!-- example: test/examples/x.ts -->` is followed by
 * that file's content as a ```ts block; `npm run readme` rewrites the blocks from the files, and
 * a test checks that nothing differs. A marker `<!-- table: name -->` is followed by a table
 * made from the code's own table of that name (TABLES), rewritten the same way.
 */
const MARKER = /^<!-- example: (\S+) -->\n(?:\n?```ts\n[\s\S]*?\n```\n)?/gm;
const TABLE_MARKER = /^<!-- table: (\S+) -->\n(?:\n?\|.*\n(?:\|.*\n)*)?/gm;

/** The docs' tables made from code, by marker name. */
const TABLES: Record<string, () => string[][]> = {
  "client-options": () => [
    ["option", "environment variable", "default", "meaning"],
    ...CLIENT_OPTION_DOCS.map((o) => [
      `\`${o.name}\``,
      o.env ? `\`${o.env}\`` : "",
      o.default,
      o.meaning,
    ]),
  ],
  "launch-settings": () => [
    ["Setting", "`seqera-api launch`, `relaunch` (tw's)", "Sent as"],
    ...launchSettingRows().map(([key, { flag, sentAs }]) => [
      `\`${key}\``,
      flag ? flagText(flag) : "",
      sentAs,
    ]),
  ],
};

function flagText(flag: LaunchFlag): string {
  const names = [flag.short && `-${flag.short}`, `--${flag.name}`].filter(Boolean).join(", ");
  const aliases = (flag.aliases ?? []).map((alias) => `--${alias}`).join(", ");
  const only = flag.only ? ` (${flag.only} only)` : "";
  return `\`${names}\`${aliases ? ` (\`${aliases}\`)` : ""}${only}`;
}

async function markdownTable(rows: string[][]): Promise<string> {
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  const text = [line(rows[0]!), line(rows[0]!.map(() => "---")), ...rows.slice(1).map(line)];
  return format(`${text.join("\n")}\n`, { parser: "markdown", printWidth: 100 });
}

export async function syncExamples(doc: string, root: string): Promise<string> {
  const files = [...doc.matchAll(MARKER)].map((m) => m[1]!);
  const contents = new Map<string, string>();
  for (const file of files) contents.set(file, await readFile(path.join(root, file), "utf8"));
  const tables = new Map<string, string>();
  for (const [, name] of doc.matchAll(TABLE_MARKER)) {
    const rows = TABLES[name!];
    if (!rows) throw new Error(`<!-- table: ${name} -->: no such table (${Object.keys(TABLES)})`);
    tables.set(name!, await markdownTable(rows()));
  }
  return doc
    .replace(
      MARKER,
      (_, file: string) => `<!-- example: ${file} -->\n\n\`\`\`ts\n${contents.get(file)}\`\`\`\n`,
    )
    .replace(TABLE_MARKER, (_, name: string) => `<!-- table: ${name} -->\n\n${tables.get(name)}`);
}

/** The documentation pages, relative to the project's root. */
export async function docPages(root: string): Promise<string[]> {
  const pages = (await readdir(path.join(root, "docs"))).filter((name) => name.endsWith(".md"));
  return ["README.md", "ARCHITECTURE.md", ...pages.sort().map((name) => `docs/${name}`)];
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const page of await docPages(root)) {
    const file = path.join(root, page);
    await writeFile(file, await syncExamples(await readFile(file, "utf8"), root));
  }
}
