import { type Emulator } from "seqera-api-client/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { EXIT } from "../../src/cli/exit-codes.js";
import { runAnswer } from "../testing/valid.js";
import { runCli, tempFile, type BuiltCli, type RunOptions, cliAndEmulator } from "./cli.js";

let cli: BuiltCli;
let emulator: Emulator;
const file = tempFile;

beforeAll(async () => {
  ({ cli, emulator } = await cliAndEmulator({
    seed: {
      workspaces: [{ org: "acme", name: "prod", id: 42 }],
      computeEnvs: [{ name: "aws-ce", workspaceId: 42, status: "AVAILABLE", id: "ce1" }],
      pipelines: [
        {
          name: "rnaseq",
          workspaceId: 42,
          launch: {
            computeEnvId: "ce1",
            workDir: "s3://b/work",
            paramsText: '{"input":"s3://x","outdir":"s3://y","trim":{"min":10}}',
          },
        },
      ],
    },
    // Each describe of an active run moves it one step, so waits end without the test stepping.
    autoAdvance: true,
  }));
});
afterAll(async () => {
  await emulator?.close();
});
beforeEach(() => emulator.clearHandlers());

const env = () => ({
  TOWER_API_ENDPOINT: emulator.url,
  TOWER_ACCESS_TOKEN: emulator.token,
  TOWER_WORKSPACE_ID: "acme/prod",
});
const seqera = (args: string[], options: RunOptions = {}) =>
  runCli(cli.main, args, { env: env(), ...options });
const fast = ["--poll-interval", "20ms"];
const lastLaunch = () =>
  emulator.requests.filter((r) => r.operationId === "CreateWorkflowLaunch").at(-1)!;

describe("launch", () => {
  test("by name in an org/workspace, YAML params merged, --wait: the run SUCCEEDED, exit 0", async () => {
    const params = await file("params.yaml", "outdir: s3://results\ntrim:\n  max: 50\n");
    const result = await seqera(["launch", "rnaseq", "--params-file", params, "--wait", ...fast]);
    expect(result).toMatchObject({ code: EXIT.ok, stderr: "" });
    const { workflowId, run } = JSON.parse(result.stdout);
    expect(run).toMatchObject({ id: workflowId, status: "SUCCEEDED" });
    const { launch } = lastLaunch().body as { launch: Record<string, unknown> };
    expect(lastLaunch().search).toBe("workspaceId=42");
    expect(launch).toMatchObject({ computeEnvId: "ce1", workDir: "s3://b/work" });
    expect(JSON.parse(launch.paramsText as string)).toEqual({
      input: "s3://x",
      outdir: "s3://results",
      trim: { min: 10, max: 50 },
    });
  });

  test("--params-file - reads the params from standard input, as tw does", async () => {
    const result = await seqera(["launch", "rnaseq", "--params-file", "-"], {
      stdin: "outdir: s3://from-stdin\n",
    });
    expect(result).toMatchObject({ code: EXIT.ok, stderr: "" });
    const { launch } = lastLaunch().body as { launch: { paramsText: string } };
    expect(JSON.parse(launch.paramsText)).toMatchObject({ outdir: "s3://from-stdin" });
  });

  test("--params files merged in order, then -p name=value params (dotted names nest, values read as YAML)", async () => {
    const a = await file("a.yaml", "outdir: s3://a\ntrim:\n  max: 50\n");
    const b = await file("b.json", '{"outdir": "s3://b", "extra": true}');
    const result = await seqera([
      "launch",
      "rnaseq",
      "--params",
      a,
      "--params-file",
      b,
      "-p",
      "trim.max=60",
      "-p",
      "genome=GRCm39",
    ]);
    expect(result).toMatchObject({ code: EXIT.ok, stderr: "" });
    const { launch } = lastLaunch().body as { launch: Record<string, unknown> };
    expect(JSON.parse(launch.paramsText as string)).toEqual({
      input: "s3://x",
      outdir: "s3://b",
      trim: { min: 10, max: 60 },
      extra: true,
      genome: "GRCm39",
    });
  });

  test("without --wait: prints the workflowId at once", async () => {
    // --nextflow-version is checked against the catalog of API 1.187.0+: nextflow-version.test.ts.
    const result = await seqera(["launch", "rnaseq", "--run-name", "quick"]);
    expect(result).toMatchObject({ code: EXIT.ok, stderr: "" });
    const { workflowId, run } = JSON.parse(result.stdout);
    expect(run).toBeUndefined();
    expect(emulator.state.runs.get(workflowId)?.runName).toBe("quick");
  });

  test("a run that FAILS: exit 1, the run on stdout, its error and failed task on stderr", async () => {
    emulator.setHandler("DescribeWorkflow", (request) => {
      const id = String(request.params.workflowId);
      const run = emulator.state.runs.get(id)!;
      if (run.status === "RUNNING")
        emulator.state.runs.finish(id, "FAILED", "Process ALIGN exited 1");
      return undefined;
    });
    const result = await seqera(["launch", "rnaseq", "--wait", ...fast]);
    expect(result.code).toBe(EXIT.runFailed);
    expect(JSON.parse(result.stdout).run).toMatchObject({ status: "FAILED" });
    expect(result.stderr).toMatch(
      /^seqera-api: Run \w+ ended FAILED: Process ALIGN exited 1 \(failed tasks: FASTQC \(sample_1\)\)\n$/,
    );
  });

  test.each([
    [["launch", "rnaseqq"], 'No pipeline named "rnaseqq" in workspace 42; did you mean "rnaseq"?'],
    [
      ["launch", "rnaseq", "--compute-env", "aws"],
      'No compute environment named "aws" in workspace 42',
    ],
    [
      ["launch", "rnaseq", "--params-file", "/nonexistent.yaml"],
      "--params-file /nonexistent.yaml: cannot read the file (ENOENT).",
    ],
    [
      ["launch", "rnaseq", "--config", "/nonexistent.config"],
      "--config /nonexistent.config: cannot read the file (ENOENT).",
    ],
    [["launch", "rnaseq", "-p", "=1"], '-p "=1": expected name=value (a.b=value nests).'],
    [
      ["launch", "rnaseq", "-c", "aws", "--compute-env", "gcp"],
      "--compute-env is given more than once: it takes one name.",
    ],
    [["launch", "rnaseq", "--no-resume"], "--no-resume does not apply to seqera-api launch."],
    [["launch", "rnaseq", "--syntax-parser", "v3"], "--syntax-parser v3: expected v1 or v2."],
    [["launch"], "Usage: seqera-api launch <pipeline name or URL>"],
    [["launch", "rnaseq", "--follow"], "--follow does not apply to seqera-api launch."],
  ])("bad input %j: exit 2, nothing launched", async (args, message) => {
    const launches = emulator.requests.filter(
      (r) => r.operationId === "CreateWorkflowLaunch",
    ).length;
    const result = await seqera(args);
    expect(result.stderr).toContain(`seqera-api: ${message}`);
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(result.code).toBe(EXIT.usage);
    expect(emulator.requests.filter((r) => r.operationId === "CreateWorkflowLaunch")).toHaveLength(
      launches,
    );
  });

  test("params that are not an object: exit 2", async () => {
    const params = await file("list.yaml", "- a\n- b\n");
    const result = await seqera(["launch", "rnaseq", "--params", params]);
    expect(result.code).toBe(EXIT.usage);
    expect(result.stderr).toContain("must hold an object of params");
  });
});

describe("wait", () => {
  test("a CANCELLED run: exit 1", async () => {
    const run = emulator.state.runs.add({ workspaceId: 42, status: "CANCELLED" });
    const result = await seqera(["wait", run.id, ...fast]);
    expect(result.code).toBe(EXIT.runFailed);
    expect(result.stderr).toBe(`seqera-api: Run ${run.id} ended CANCELLED\n`);
  });

  test("a run that never ends: --timeout gives exit 3 naming the last status, and prints the run as last seen", async () => {
    const run = emulator.state.runs.add({ workspaceId: 42, status: "RUNNING" });
    emulator.setHandler("DescribeWorkflow", () => ({
      status: 200,
      body: runAnswer(run.id, "RUNNING"),
    }));
    // The first handled answer compiles the run's response validator (about 1 s): not timed.
    await fetch(`${emulator.url}/workflow/${run.id}`, {
      headers: { authorization: `Bearer ${emulator.token}` },
    });
    const result = await seqera(["wait", run.id, "--timeout", "1s", "--poll-interval", "100ms"]);
    expect(result.code).toBe(EXIT.timeout);
    expect(result.stderr).toBe(
      `seqera-api: Gave up waiting for run ${run.id} after 1000 ms: still RUNNING\n`,
    );
    expect(JSON.parse(result.stdout)).toMatchObject({ id: run.id, status: "RUNNING" });
  });

  test("a bad token: exit 4", async () => {
    const run = emulator.state.runs.add({ workspaceId: 42 });
    const result = await seqera(["wait", run.id, "-w", "42"], {
      env: { ...env(), TOWER_ACCESS_TOKEN: "revoked-token" },
    });
    expect(result.code).toBe(EXIT.auth);
    expect(result.stderr).toBe(
      "seqera-api wait: 403 GET /workflow/{workflowId}: Forbidden: the run is not in workspace 42 (--workspace or TOWER_WORKSPACE_ID), or TOWER_ACCESS_TOKEN is invalid or expired, or lacks a permission this needs.\n",
    );
  });
});

describe("logs", () => {
  test("--follow prints every console line once, as the run advances, and ends with it", async () => {
    const run = emulator.state.runs.add({ workspaceId: 42 });
    const result = await seqera(["logs", run.id, "--follow", ...fast]);
    expect(result).toMatchObject({ code: EXIT.ok, stderr: "" });
    const ended = emulator.state.runs.get(run.id)!;
    expect(ended.status).toBe("SUCCEEDED");
    expect(result.stdout).toBe(ended.log.map((line) => `${line}\n`).join(""));
    expect(ended.log.length).toBeGreaterThan(5);
  });

  test("without --follow: the console output of an ended run", async () => {
    const run = emulator.state.runs.add({ workspaceId: 42, status: "SUCCEEDED" });
    const result = await seqera(["logs", run.id]);
    expect(result).toMatchObject({ code: EXIT.ok, stderr: "" });
    expect(result.stdout).toContain("Completed at:");
  });
});

describe("datasets add", () => {
  test("uploads the file and prints the URL to launch with", async () => {
    const csv = await file("samples.csv", "sample,fastq\ns1,a.fq\n");
    const result = await seqera(["datasets", "add", "samples", csv, "--header"]);
    expect(result).toMatchObject({ code: EXIT.ok, stderr: "" });
    const uploaded = JSON.parse(result.stdout);
    expect(uploaded).toMatchObject({
      version: 1,
      url: expect.stringContaining(`/workspaces/42/datasets/${uploaded.datasetId}/v/1/n/`),
    });
    const [version] = emulator.state.datasets.get(uploaded.datasetId)!.versions;
    expect(new TextDecoder().decode(version!.content)).toBe("sample,fastq\ns1,a.fq\n");
  });

  test("a missing file: exit 2 before any request", async () => {
    const before = emulator.requests.length;
    const result = await seqera(["datasets", "add", "samples", "/nonexistent.csv"]);
    expect(result).toMatchObject({
      code: EXIT.usage,
      stderr: "seqera-api: /nonexistent.csv: cannot read the file (ENOENT).\n",
    });
    expect(emulator.requests.length).toBe(before);
  });
});
