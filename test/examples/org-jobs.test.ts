import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startEmulator, type Emulator } from "seqera-api-client/testing";
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { orgJobsEmulator } from "./org-jobs-seed.js";
import {
  cleanUpStaleRuns,
  participantsOf,
  rotateCredentials,
  runOnSamplesheet,
} from "./org-jobs.js";
import { stubTwVariables } from "./tw-variables.js";

// The organization jobs of docs/recipes.md, run as a user would (configured by the tw CLI's
// variables) against a seeded emulator; what they print is what the test reads.
let emulator: Emulator;
let printed: string[];
beforeEach(async () => {
  emulator = await startEmulator(orgJobsEmulator());
  stubTwVariables(emulator);
  printed = [];
  vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => {
    printed.push(args.join(" "));
  });
});
afterEach(async () => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  await emulator.close();
});

test("cleanUpStaleRuns: cancels the run going for 30 hours, watches the other end", async () => {
  await cleanUpStaleRuns("acme", 24, 10);
  expect(printed).toEqual(["cancelled prod/stale", "fresh: RUNNING -> SUCCEEDED"]);
  expect(emulator.state.runs.list(7)[0]!.status).toBe("CANCELLED");
});

test("rotateCredentials: new keys in both workspaces; the compute environments using them", async () => {
  await rotateCredentials("acme", "aws-prod", "AKIA-NEW", "new-secret");
  expect(printed).toEqual(["prod batch AVAILABLE", "prod spot ERRORED", "dev batch AVAILABLE"]);
  for (const id of ["cr7", "cr8"]) {
    expect(emulator.state.credentials.get(id)!.keys).toEqual({
      discriminator: "aws",
      accessKey: "AKIA-NEW",
      secretKey: "new-secret",
    });
  }
});

test("runOnSamplesheet: a new dataset version, a run on it, its failed task and stderr", async () => {
  const file = path.join(tmpdir(), `samples-${process.pid}.csv`);
  await writeFile(file, "sample,fastq\ns1,s3://b/s1.fq\n");
  await expect(runOnSamplesheet("acme/prod", "rnaseq", file)).resolves.toBe(false);
  expect(printed).toEqual(["FASTQC (sample_1) exit 137: reading | sorting | Killed"]);
  const launch = emulator.requests.find((r) => r.operationId === "CreateWorkflowLaunch")!;
  const { paramsText } = (launch.body as { launch: { paramsText: string } }).launch;
  expect(JSON.parse(paramsText).input).toMatch(/\/datasets\/.+\/v\/1\/n\/samples/);
});

test("participantsOf: a workspace's participants by its name", async () => {
  await participantsOf("acme/prod");
  expect(printed).toContain("alice launch");
});
