import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Code examples of the docs (README.md, ARCHITECTURE.md, docs/*.md) are files of the test
 * suite, compiled and run there. A marker `<!-- example: test/examples/x.ts -->` is followed by
 * that file's content as a ```ts block; `npm run readme` rewrites the blocks from the files, and
 * a test checks that nothing differs.
 */
const MARKER = /^<!-- example: (\S+) -->\n(?:\n?```ts\n[\s\S]*?\n```\n)?/gm;

export async function syncExamples(doc: string, root: string): Promise<string> {
  const files = [...doc.matchAll(MARKER)].map((m) => m[1]!);
  const contents = new Map<string, string>();
  for (const file of files) contents.set(file, await readFile(path.join(root, file), "utf8"));
  return doc.replace(
    MARKER,
    (_, file: string) => `<!-- example: ${file} -->\n\n\`\`\`ts\n${contents.get(file)}\`\`\`\n`,
  );
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
