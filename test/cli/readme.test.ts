import { readFile } from "node:fs/promises";
import path from "node:path";
import { expect, test } from "vitest";
import { docPages } from "../../scripts/readme-examples.js";
import { EXIT_MEANINGS } from "../../src/cli/exit-codes.js";
import { root } from "./cli.js";

const docs = await Promise.all(
  (await docPages(root)).map(async (page) => ({
    page,
    text: await readFile(path.join(root, page), "utf8"),
  })),
);

test("the docs' exit-code table is the CLI's", () => {
  const marker = "<!-- exit codes: src/cli/exit-codes.ts -->";
  const tables = docs.filter((d) => d.text.includes(marker));
  expect(tables.map((d) => d.page)).toEqual(["docs/cli.md"]);
  const table = tables[0]!.text.split(marker)[1]!;
  const rows = [...table.matchAll(/^\| (\d+) +\| (.+?) +\|$/gm)].map((m) => [m[1], m[2]]);
  expect(rows).toEqual(Object.entries(EXIT_MEANINGS));
});

test("every shell script of the docs is the file the suite runs", async () => {
  let scripts = 0;
  for (const { page, text } of docs) {
    for (const [, file, block] of text.matchAll(
      /^<!-- script: (\S+) -->\n\n```sh\n([\s\S]*?)^```\n/gm,
    )) {
      expect(block, `${page}: ${file}`).toBe(await readFile(path.join(root, file!), "utf8"));
      scripts++;
    }
  }
  expect(scripts).toBeGreaterThan(0);
});
