/**
 * The organization jobs of docs/recipes.md as seqera-api scripts (test/cli/*.sh, with jq),
 * against the emulator seeded as for the library's versions (test/examples/org-jobs.test.ts).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startEmulator, type Emulator } from "seqera-api-client/testing";
import { afterEach, beforeAll, beforeEach, expect, test } from "vitest";
import { orgJobsEmulator } from "../examples/org-jobs-seed.js";
import { runScript, sharedBuild, type BuiltCli, requireJq } from "./cli.js";

let cli: BuiltCli;
let work: string;
let emulator: Emulator;
beforeAll(async () => {
  requireJq();
  [cli, work] = await Promise.all([sharedBuild(), mkdtemp(path.join(tmpdir(), "seqera-org-"))]);
});
beforeEach(async () => {
  emulator = await startEmulator(orgJobsEmulator());
});
afterEach(async () => {
  await emulator.close();
  await rm(path.join(work, "bin"), { recursive: true, force: true });
});

const script = (name: string, args: string[], env: Record<string, string> = {}) =>
  runScript(cli.main, name, args, {
    work,
    emulator,
    env: { POLL: "20ms", ...env },
    limitMs: 120_000,
  });

test("stale-runs.sh: cancels the run going for 30 hours, watches the other end", async () => {
  const result = await script("stale-runs.sh", ["acme", "24"]);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  expect(result.stdout).toBe("cancelled stale\nfresh: RUNNING -> SUCCEEDED\n");
});

test("rotate-credentials.sh: new keys in both workspaces; the compute environments using them", async () => {
  const result = await script("rotate-credentials.sh", ["acme", "aws-prod"], {
    AWS_KEY: "AKIA-NEW",
    AWS_SECRET: "new-secret",
  });
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  expect(result.stdout).toBe("prod batch AVAILABLE\nprod spot ERRORED\ndev batch AVAILABLE\n");
  expect(emulator.state.credentials.get("cr8")!.keys).toMatchObject({ accessKey: "AKIA-NEW" });
});

test("samplesheet-run.sh: a new dataset version, a run on it, its failed task and stderr: exit 1", async () => {
  await writeFile(path.join(work, "samples.csv"), "sample,fastq\ns1,s3://b/s1.fq\n");
  const result = await script("samplesheet-run.sh", ["rnaseq", "samples.csv"], {
    TOWER_WORKSPACE_ID: "acme/prod",
  });
  // wait says why the run failed; the script's report follows on stdout.
  expect(result.stderr).toMatch(/^seqera-api: Run \S+ ended FAILED/);
  expect(result.code).toBe(1);
  expect(result.stdout).toBe("FASTQC (sample_1) exit 137: reading | sorting | Killed\n");
  // Four commands with -w acme/prod: the name was looked up once.
  const lookups = emulator.requests.filter((r) => r.operationId === "UserInfo");
  expect(lookups).toHaveLength(1);
});

test("copy-pipelines.sh: the pipelines of prod missing in dev, on dev's compute environment of the same name", async () => {
  const result = await script("copy-pipelines.sh", ["acme/prod", "acme/dev"]);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  expect(result.stdout).toBe("rnaseq: compute env by name\n");
  expect(emulator.state.pipelines.byName("rnaseq", 8)).toBeDefined();
});
