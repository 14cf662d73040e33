import { access, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";
import { docPages, syncExamples } from "../scripts/readme-examples.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const pages = await docPages(root);
const read = (page: string) => readFile(path.join(root, page), "utf8");

test("every TypeScript example of the docs is a file the suite compiles and runs", async () => {
  let examples = 0;
  for (const page of pages) {
    const doc = await read(page);
    const blocks = doc.match(/^```ts$/gm) ?? [];
    const marked = doc.match(/^<!-- example: \S+ -->\n\n```ts$/gm) ?? [];
    expect(marked, page).toHaveLength(blocks.length);
    examples += blocks.length;
    // Identical to the files ('npm run readme' rewrites the blocks from them).
    expect(await syncExamples(doc, root), page).toBe(doc);
  }
  expect(examples).toBeGreaterThan(10);
});

/** The page's lines outside code blocks. */
function outsideCode(doc: string): string[] {
  let inCode = false;
  return doc.split("\n").filter((line) => {
    if (line.startsWith("```")) inCode = !inCode;
    return !inCode && !line.startsWith("```");
  });
}

test("the docs' prose has no line over 200 characters", async () => {
  for (const page of pages) {
    const long = outsideCode(await read(page)).filter(
      (line) => !line.startsWith("|") && line.length > 200,
    );
    expect(long, page).toEqual([]);
  }
});

test("the README is a front door: at most 300 lines, linking every docs page, of at most 11", async () => {
  const readme = await read("README.md");
  expect(readme.split("\n").length).toBeLessThanOrEqual(300);
  expect(pages.filter((page) => page.startsWith("docs/")).length).toBeLessThanOrEqual(11);
  for (const page of pages.filter((p) => p !== "README.md")) {
    expect(readme, page).toContain(`](${page})`);
  }
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");

test("every relative link of the docs names a file that exists, and a heading in it", async () => {
  for (const page of pages) {
    for (const line of outsideCode(await read(page))) {
      for (const [, target] of line.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [file, hash] = target!.split("#");
        const linked = file ? path.join(path.dirname(page), file) : page;
        await expect(access(path.join(root, linked)), `${page} → ${target}`).resolves.toBe(
          undefined,
        );
        if (hash === undefined) continue;
        const headings = [...(await read(linked)).matchAll(/^#+ (.+)$/gm)].map((m) =>
          anchor(m[1]!),
        );
        expect(headings, `${page} → ${target}`).toContain(hash);
      }
    }
  }
});
