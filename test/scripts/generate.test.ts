import { appendFile, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runGenerate } from "../../scripts/schema/run-generate.js";
import {
  readRelease,
  removeTempDirs,
  runScript,
  sha256Of,
  tempDir,
  tempProject,
} from "../helpers/schema.js";

let root: string;
let first: string;
let second: string;
let summary: string;

beforeAll(async () => {
  root = await tempProject("1.181.0");
  first = path.join(root, "first");
  second = path.join(root, "second");
  summary = await runGenerate({ root, argv: ["--out", first], env: {} });
  await runGenerate({ root, argv: ["--out", second], env: {} });
});

afterAll(removeTempDirs);

const read = (dir: string, name: string): Promise<Buffer> => readFile(path.join(dir, name));

describe("npm run generate", () => {
  test("prints one summary line: release, operations, schemas, seconds", () => {
    expect(summary).toMatch(
      /^generated release 1\.181\.0: 250 operations, 492 schemas, \d+\.\d+s$/,
    );
  });

  test("two runs give byte-identical files", async () => {
    const names = await readdir(first);
    expect(names.sort()).toEqual([
      "copies.ts",
      "openapi.json",
      "operations.ts",
      "schema.ts",
      "version.ts",
    ]);
    expect((await readdir(second)).sort()).toEqual(names);
    for (const name of names) {
      expect((await read(second, name)).equals(await read(first, name)), name).toBe(true);
    }
  });

  test("copies.ts: every launch field of the release but the rule's exceptions is copied", async () => {
    const text = (await read(first, "copies.ts")).toString();
    const copied = JSON.parse(/launch: (\[[^\]]*\])/.exec(text)![1]!.replace(/,\s*\]/, "]"));
    const doc = JSON.parse((await read(first, "openapi.json")).toString());
    const fields = Object.keys(doc.components.schemas.WorkflowLaunchRequest.properties).sort();
    expect(copied).toEqual(
      fields.filter(
        (f) =>
          !["computeEnvId", "labelIds", "dateCreated", "resume", "sessionId", "commitId"].includes(
            f,
          ),
      ),
    );
    expect(copied).toContain("outputDir");
  });

  test("version.ts carries the pinned release and sha256", async () => {
    const text = (await read(first, "version.ts")).toString();
    expect(text).toContain('export const SCHEMA_VERSION = "1.181.0";');
    expect(text).toContain(
      `export const SCHEMA_SHA256 = "${sha256Of(await readRelease("1.181.0"))}";`,
    );
  });

  test("--check passes when fresh, fails with one line after an edit", async () => {
    const outDir = await tempDir();
    const out = path.join(outDir, "generated");
    const made = await runScript("generate.ts", ["--out", out]);
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(
      /^generated release 1\.187\.0: 252 operations, 498 schemas, [\d.]+s\n$/,
    );

    const fresh = await runScript("generate.ts", ["--check", "--out", out]);
    expect(fresh).toMatchObject({ code: 0, stderr: "" });
    expect(fresh.stdout).toBe("generated/ is up to date with release 1.187.0\n");

    await appendFile(path.join(out, "operations.ts"), "// edited by hand\n");
    const edited = await runScript("generate.ts", ["--check", "--out", out]);
    expect(edited.code).toBe(1);
    expect(edited.stderr).toMatch(
      /^generate: .*generated\/ is stale or was edited \(operations\.ts\); run 'npm run generate'\n$/,
    );
  }, 180_000); // two generations in child processes: minutes on a busy 2-core machine

  test("an unknown flag is an error, not a silent generation", async () => {
    const result = await runScript("generate.ts", ["--chek"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "generate: Unknown option '--chek' (known: --source, --out, --check)\n",
    );
  });
});
