/**
 * publint and arethetypeswrong on the package as this tree last built it (dist/, by `npm ci` or
 * `npm run build`), packed without its scripts: the packed line's own test, which builds afresh,
 * installs and type-checks a consumer, is the release matrix's (scripts/matrix-tests.json).
 */
import { execFile } from "node:child_process";
import { access, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, expect, test } from "vitest";
import { expectLintClean } from "./lint.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const dir = await mkdtemp(path.join(tmpdir(), "seqera-lint-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

test("publint and arethetypeswrong find no problem in the package as built", async () => {
  await access(path.join(root, "dist", "src", "index.d.ts")).catch(() => {
    throw new Error("dist/ is not built: run `npm run build` (npm ci builds it)");
  });
  const { stdout } = await promisify(execFile)(
    "npm",
    ["pack", "--ignore-scripts", "--json", "--pack-destination", dir],
    { cwd: root },
  );
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
  expect(filename).toMatch(/^seqera-api-client-[\d.]+\.tgz$/);
  await expectLintClean(path.join(dir, filename));
}, 60_000);
