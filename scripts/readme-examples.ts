import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * README code examples are files of the test suite, compiled and run there. A marker
 * `<!-- example: test/examples/x.ts -->` is followed by that file's content as a ```ts block;
 * `npm run readme` rewrites the blocks from the files, and a test checks that nothing differs.
 */
const MARKER = /^<!-- example: (\S+) -->\n(?:\n?```ts\n[\s\S]*?\n```\n)?/gm;

export async function syncExamples(readme: string, root: string): Promise<string> {
  const files = [...readme.matchAll(MARKER)].map((m) => m[1]!);
  const contents = new Map<string, string>();
  for (const file of files) contents.set(file, await readFile(path.join(root, file), "utf8"));
  return readme.replace(
    MARKER,
    (_, file: string) => `<!-- example: ${file} -->\n\n\`\`\`ts\n${contents.get(file)}\`\`\`\n`,
  );
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = path.join(root, "README.md");
  await writeFile(file, await syncExamples(await readFile(file, "utf8"), root));
}
