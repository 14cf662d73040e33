import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startEmulator, type Emulator } from "seqera-api-client/testing";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { nightly } from "./automation.js";
import { stubTwVariables } from "./tw-variables.js";

// The README's automation example, run as a user would (configured by the tw CLI's variables)
// against an emulator seeded with the state it expects to find.
let emulator: Emulator;
let dir: string;
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

beforeAll(async () => {
  emulator = await startEmulator({
    // A describe of the new compute env makes it AVAILABLE; runs step every millisecond, so the
    // first poll finds the run ended, failed in its first task by the pipeline's ending.
    autoAdvance: true,
    runSteps: { everyMs: 1 },
    seed: {
      organizations: [{ name: "acme" }],
      workspaces: [
        { org: "acme", name: "genomics", id: 7 },
        { org: "acme", name: "scratch", id: 8 },
      ],
      pipelines: [
        {
          name: "rnaseq",
          workspaceId: "acme/genomics",
          repository: "https://github.com/nf-core/rnaseq",
          launch: {
            revision: "3.14.0",
            paramsText:
              '{"input": "s3://old/samples.csv", "genome": "GRCh38", "outdir": "s3://out"}',
          },
          ending: { status: "FAILED", task: "FASTQC", errorMessage: "Out of memory" },
        },
      ],
      runs: [
        { workspaceId: 7, runName: "last_week", status: "FAILED", dateCreated: daysAgo(3) },
        { workspaceId: 7, runName: "last_month", status: "FAILED", dateCreated: daysAgo(30) },
        { workspaceId: 7, runName: "fine", status: "SUCCEEDED", dateCreated: daysAgo(2) },
        { workspaceId: 8, runName: "elsewhere", status: "FAILED", dateCreated: daysAgo(1) },
      ],
    },
  });
  dir = await mkdtemp(path.join(tmpdir(), "seqera-automation-"));
  stubTwVariables(emulator);
  vi.stubEnv("AWS_KEY", "AKIAEXAMPLE");
  vi.stubEnv("AWS_SECRET", "example-secret");
});

afterAll(async () => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  await emulator.close();
  await rm(dir, { recursive: true, force: true });
});

test("the README's job: set up, upload, launch by name, wait, tasks and log, failed runs", async () => {
  const samplesheet = path.join(dir, "samples.csv");
  await writeFile(samplesheet, "sample,fastq_1\nS1,s3://reads/S1.fastq.gz\n");
  const log = vi.spyOn(console, "log").mockImplementation(() => {});

  const { workflowId, failed } = await nightly("acme/genomics", "rnaseq", samplesheet);

  // Set up in the workspace named: credentials, and a compute env that became AVAILABLE.
  const credentials = emulator.state.credentials.byName("keys", 7)!;
  expect(credentials).toMatchObject({ provider: "aws", keys: { accessKey: "AKIAEXAMPLE" } });
  const computeEnv = emulator.state.computeEnvs.byName("aws", 7)!;
  expect(computeEnv).toMatchObject({ status: "AVAILABLE", credentialsId: credentials.id });
  // Launched from the saved launch, two params changed, the others kept, on the new env.
  const dataset = emulator.state.datasets.byName("samples", 7)!;
  const run = emulator.state.runs.get(workflowId)!;
  expect(run).toMatchObject({ workspaceId: 7, status: "FAILED", computeEnvId: computeEnv.id });
  expect(JSON.parse(run.launch.paramsText as string)).toEqual({
    input: `${emulator.url}/workspaces/7/datasets/${dataset.id}/v/1/n/samples.csv`,
    genome: "GRCm39",
    outdir: "s3://out",
  });
  expect(run.launch.revision).toBe("3.14.0");
  // Last week's failed runs of that workspace, newest first.
  expect(failed).toEqual([run.runName, "last_week"]);

  const printed = log.mock.calls.map((args) => args.join(" "));
  expect(printed[0]).toContain("acme/genomics");
  expect(printed).toContain("FASTQC (sample_1): Out of memory");
  expect(printed).toContain("FASTQC (sample_1) FAILED");
  // The whole console log, once.
  expect(printed.slice(-run.log.length)).toEqual(run.log);
});
