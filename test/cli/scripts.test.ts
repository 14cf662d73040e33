/**
 * The shell scripts of the docs, executed: `npm run demo` (test/cli/demo.sh), a newcomer's first
 * job (test/cli/newcomer-job.sh) and the triage job (test/cli/triage-job.sh) against seeded
 * emulators. The jobs' scripts use jq: without it their tests fail, saying so.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startEmulator, type Emulator } from "seqera-api-client/testing";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { root, runCommand, runScript, sharedBuild, type BuiltCli, requireJq } from "./cli.js";

let cli: BuiltCli;
let work: string;
beforeAll(async () => {
  [cli, work] = await Promise.all([sharedBuild(), mkdtemp(path.join(tmpdir(), "seqera-cli-"))]);
});
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

test("npm run demo: launches on its own emulator, waits, prints the log, and stops the emulator", async () => {
  const result = await runCommand("bash", [path.join(root, "test/cli/demo.sh")], {
    env: { SEQERA_API_MAIN: cli.main },
  });
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  expect(result.stdout).toMatch(
    /^emulator at http:\/\/127\.0\.0\.1:\d+, workspace demo\/showcase\n/,
  );
  expect(result.stdout).toMatch(/^run \w+ ended SUCCEEDED$/m);
  expect(result.stdout).toMatch(/Launching `https:\/\/github\.com\/nextflow-io\/hello`/);
  expect(result.stdout).toMatch(/Completed at: .*\nSucceeded {3}: 2\n$/);
});

describe("the newcomer job as a seqera-api script", () => {
  let emulator: Emulator;
  beforeAll(async () => {
    requireJq();
    emulator = await startEmulator({
      seed: {
        workspaces: [
          { org: "acme", name: "prod", id: 42 },
          { org: "acme", name: "dev", id: 43 },
        ],
        pipelines: [
          {
            name: "rnaseq",
            workspaceId: 42,
            launch: {
              pipeline: "https://github.com/nf-core/rnaseq",
              workDir: "s3://b/work",
              paramsText: '{"input":"s3://old.csv","genome":"GRCh38","outdir":"s3://out"}',
            },
          },
        ],
        runs: [
          {
            workspaceId: 42,
            runName: "last-year",
            status: "FAILED",
            dateCreated: "2020-01-01T00:00:00Z",
          },
          { workspaceId: 42, runName: "yesterday", status: "FAILED" },
          { workspaceId: 42, runName: "fine", status: "SUCCEEDED" },
        ],
      },
      autoAdvance: true,
    });
  });
  afterAll(() => emulator?.close());

  test("lists workspaces, sets up credentials and a compute env, uploads, launches, waits, reports", async () => {
    await writeFile(path.join(work, "samples.csv"), "sample,fastq\ns1,a.fq\n");
    const result = await runScript(cli.main, "newcomer-job.sh", [], {
      work,
      emulator,
      env: { AWS_KEY: "key", AWS_SECRET: "secret", POLL: "20ms" },
      limitMs: 60_000,
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const [ce] = emulator.state.computeEnvs.list(42);
    expect(ce).toMatchObject({ name: "batch", status: "AVAILABLE" });
    const [dataset] = emulator.state.datasets.list(42);
    const launch = emulator.requests.find((r) => r.operationId === "CreateWorkflowLaunch")!;
    const { paramsText } = (launch.body as { launch: { paramsText: string } }).launch;
    // Two params changed, the saved one kept; the saved format (JSON) too.
    expect(JSON.parse(paramsText)).toEqual({
      input: `${emulator.url}/workspaces/42/datasets/${dataset!.id}/v/1/n/samples.csv`,
      genome: "GRCm39",
      outdir: "s3://out",
    });
    expect(result.stdout).toBe(
      [
        "acme/prod",
        "acme/dev",
        "FASTQC (sample_1) COMPLETED",
        "MULTIQC COMPLETED",
        ...emulator.state.runs.list(42).find((r) => r.launch.computeEnvId === ce!.id)!.log,
        "yesterday",
        "",
      ].join("\n"),
    );
  });
});

describe("the triage job as a seqera-api script", () => {
  let emulator: Emulator;
  beforeAll(async () => {
    requireJq();
    emulator = await startEmulator({
      seed: {
        workspaces: [{ org: "acme", name: "prod", id: 42 }],
        computeEnvs: [{ name: "aws", workspaceId: 42, status: "AVAILABLE", id: "ce1" }],
        runs: [
          {
            workspaceId: 42,
            runName: "last-year",
            status: "FAILED",
            dateCreated: "2020-01-01T00:00:00Z",
          },
          {
            workspaceId: 42,
            runName: "tonight",
            status: "FAILED",
            errorMessage: "Process ALIGN exited 1",
            launch: { computeEnvId: "ce1", workDir: "s3://b/work" },
          },
          { workspaceId: 42, runName: "fine", status: "SUCCEEDED" },
        ],
      },
    });
  });
  afterAll(() => emulator?.close());

  test("finds last day's failed run, says why it failed, and resumes it", async () => {
    const result = await runScript(cli.main, "triage-job.sh", [], {
      work,
      emulator,
      env: { TOWER_WORKSPACE_ID: "acme/prod" },
      limitMs: 60_000,
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const failed = emulator.state.runs.list(42).find((r) => r.runName === "tonight")!;
    const launches = emulator.requests.filter((r) => r.operationId === "CreateWorkflowLaunch");
    expect(launches).toHaveLength(1);
    const { launch } = launches[0]!.body as { launch: Record<string, unknown> };
    expect(launch).toMatchObject({
      resume: true,
      sessionId: failed.sessionId,
      id: failed.launchId,
    });
    const seeded = ["last-year", "tonight", "fine"];
    const resumed = emulator.state.runs.list(42).find((r) => !seeded.includes(r.runName));

    expect(result.stdout).toBe(
      `tonight failed (Process ALIGN exited 1), relaunched as ${resumed?.id}\n`,
    );
  });
});
