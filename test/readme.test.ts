import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";
import { syncExamples } from "../scripts/readme-examples.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

test("every TypeScript example of the README is a file the suite compiles and runs", async () => {
  const readme = await readFile(path.join(root, "README.md"), "utf8");
  const blocks = readme.match(/^```ts$/gm) ?? [];
  const marked = readme.match(/^<!-- example: \S+ -->\n\n```ts$/gm) ?? [];
  expect(blocks.length).toBeGreaterThan(5);
  expect(marked).toHaveLength(blocks.length);
  // Identical to the files ('npm run readme' rewrites the blocks from them).
  expect(await syncExamples(readme, root)).toBe(readme);
});
