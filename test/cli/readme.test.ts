import { readFile } from "node:fs/promises";
import path from "node:path";
import { expect, test } from "vitest";
import { EXIT_MEANINGS } from "../../src/cli/exit-codes.js";
import { root } from "./cli.js";

const readme = await readFile(path.join(root, "README.md"), "utf8");

test("the README's exit-code table is the CLI's", () => {
  const table = readme.split("<!-- exit codes: src/cli/exit-codes.ts -->")[1]!;
  const rows = [...table.matchAll(/^\| (\d+) +\| (.+?) +\|$/gm)].map((m) => [m[1], m[2]]);
  expect(rows).toEqual(Object.entries(EXIT_MEANINGS));
});

test("the README's CLI script is the file the suite runs", async () => {
  const file = "test/cli/newcomer-job.sh";
  const block = readme.split(`<!-- script: ${file} -->\n\n\`\`\`sh\n`)[1]?.split("```\n")[0];
  expect(block).toBe(await readFile(path.join(root, file), "utf8"));
});
