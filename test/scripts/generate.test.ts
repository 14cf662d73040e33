import { appendFile, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runGenerate } from "../../scripts/schema/run-generate.js";
import {
  readRelease,
  removeTempDirs,
  runScript,
  sha256Of,
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
      "enums.ts",
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
    const copied = JSON.parse(/COPIED_FIELDS = ([\s\S]*?) as const;/.exec(text)![1]!).launch;
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
    // In process, on the output beforeAll generated: the CLI's one-line failure is the same
    // runCli path as the unknown flag's below, and each generation in a child process costs
    // seconds of CPU.
    const check = () => runGenerate({ root, argv: ["--check", "--out", second], env: {} });
    expect(await check()).toBe("generated/ is up to date with release 1.181.0");
    await appendFile(path.join(second, "operations.ts"), "// edited by hand\n");
    await expect(check()).rejects.toThrow(
      "second/ is stale or was edited (operations.ts); run 'npm run generate'",
    );
  });

  test("an unknown flag is an error, not a silent generation", async () => {
    const result = await runScript("generate.ts", ["--chek"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "generate: Unknown option '--chek' (known: --source, --out, --check)\n",
    );
  });
});
