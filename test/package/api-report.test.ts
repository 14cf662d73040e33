import { readFile } from "node:fs/promises";
import { expect, test } from "vitest";
import { apiReport } from "../../scripts/api-report.js";

const committed = await readFile(
  new URL("../../api/seqera-api-client.api.md", import.meta.url),
  "utf8",
);

test("the public surface is the reviewed one (api/seqera-api-client.api.md)", () => {
  const now = apiReport();
  if (now !== committed) {
    // The whole report in the assertion would bury the change: name the first line that differs.
    const [a, b] = [committed.split("\n"), now.split("\n")];
    const at = a.findIndex((line, i) => line !== b[i]);
    throw new Error(
      `The public surface changed at line ${at + 1} (committed: ${JSON.stringify(a[at])}, now: ${JSON.stringify(b[at])}). Run \`npm run api:report\` and review the diff of api/seqera-api-client.api.md.`,
    );
  }
}, 120_000);

test("the surface stays small: at most 70 names from the main entry, 8 from ./testing", () => {
  const counts = [...committed.matchAll(/^## (\S+) \((\d+) names\)$/gm)].map((m) => [
    m[1],
    Number(m[2]),
  ]);
  expect(counts).toHaveLength(2);
  expect(counts[0]![0]).toBe("seqera-api-client");
  expect(counts[0]![1]).toBeLessThanOrEqual(70);
  expect(counts[1]![0]).toBe("seqera-api-client/testing");
  expect(counts[1]![1]).toBeLessThanOrEqual(8);
});

test("docs/configuration.md names every export of ./testing", async () => {
  const testing = committed.slice(committed.indexOf("## seqera-api-client/testing"));
  const names = [...testing.matchAll(/^### (\S+)$/gm)].map((m) => m[1]!);
  const doc = await readFile(new URL("../../docs/configuration.md", import.meta.url), "utf8");
  const section = doc.slice(doc.indexOf("## What the package exports"));
  expect(names.length).toBeGreaterThan(0);
  expect(names.filter((name) => !section.includes(`\`${name}\``))).toEqual([]);
});
