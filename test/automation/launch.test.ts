import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import {
  NameNotFoundError,
  ResumeUnavailableError,
  UnexpectedAnswerError,
  launchPipeline,
  relaunchRun,
} from "../../src/index.js";
import { parseParamsText } from "../../src/automation/params.js";
import type { Emulator } from "../../src/testing/index.js";
import { FAST, LAUNCH_PLACES, clientOf, seededEmulator } from "./setup.js";

const YAML_PARAMS = "# inputs\ninput: s3://in/samples.csv # samplesheet\ngenome: GRCh38\n";

let emulator: Emulator;
beforeAll(async () => {
  emulator = await seededEmulator({
    ...LAUNCH_PLACES,
    pipelines: [
      {
        name: "rnaseq",
        workspaceId: 42,
        repository: "https://github.com/nf-core/rnaseq",
        launch: {
          computeEnvId: "ce-prod",
          workDir: "s3://prod/work",
          revision: "3.14.0",
          configProfiles: ["docker"],
          paramsText: JSON.stringify({
            input: "s3://in/a.csv",
            outdir: "s3://out",
            skip: { qc: true },
          }),
        },
      },
      {
        name: "sarek",
        workspaceId: 42,
        repository: "https://github.com/nf-core/sarek",
        launch: { paramsText: YAML_PARAMS, revision: "3.4.0" },
      },
    ],
  });
});
afterAll(() => emulator.close());
afterEach(() => emulator.clearHandlers());

const launched = () => emulator.requests.filter((r) => r.operationId === "CreateWorkflowLaunch");
const runOf = (workflowId: string) => emulator.state.runs.get(workflowId)!;

describe("launchPipeline", () => {
  test("by name: the saved launch with two params changed, merged not replaced", async () => {
    const { workflowId, run } = await launchPipeline(clientOf(emulator), "rnaseq", {
      params: { outdir: "s3://out/today", skip: { trim: true } },
    });
    expect(run).toBeUndefined();
    const launch = runOf(workflowId).launch;
    expect(launch).toMatchObject({
      computeEnvId: "ce-prod",
      workDir: "s3://prod/work",
      revision: "3.14.0",
      configProfiles: ["docker"],
      pipeline: "https://github.com/nf-core/rnaseq",
    });
    expect(JSON.parse(launch.paramsText as string)).toEqual({
      input: "s3://in/a.csv",
      outdir: "s3://out/today",
      skip: { qc: true, trim: true },
    });
    // The run is linked to the pipeline through the saved launch's id.
    const pipeline = emulator.state.pipelines.byName("rnaseq", 42)!;
    expect(launch.id).toBe(pipeline.launchId);
    expect(runOf(workflowId).pipelineId).toBe(pipeline.id);
  });

  test("saved paramsText that is not text: an UnexpectedAnswerError naming the field, nothing launched", async () => {
    // As text: the emulator would refuse a handler's answer its schema rejects, as this one is.
    const launch = { pipeline: "https://github.com/nf-core/rnaseq", paramsText: { a: 1 } };
    emulator.setHandler("DescribePipelineLaunch", () => ({
      status: 200,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ launch }),
    }));
    const before = launched().length;
    const error = await launchPipeline(clientOf(emulator), "rnaseq", {
      params: { outdir: "s3://out" },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedAnswerError);
    expect(error).toMatchObject({
      operation: "GET /pipelines/{pipelineId}/launch",
      field: "launch.paramsText",
    });
    expect((error as Error).message).toMatch(
      /^GET \/pipelines\/\{pipelineId\}\/launch answered without a usable launch\.paramsText \(expected params as JSON or YAML text\); the service sent \{"a":1\}\./,
    );
    expect(launched()).toHaveLength(before);
  });

  test("YAML params stay YAML; compute env and labels by name; revision and run name", async () => {
    const { workflowId } = await launchPipeline(
      clientOf(emulator).withWorkspace("acme/prod"),
      "sarek",
      {
        computeEnv: "aws-big",
        labels: ["nightly", "team=bio"],
        params: { genome: "GRCm39" },
        revision: "dev",
        runName: "sarek-nightly",
      },
    );
    const launch = runOf(workflowId).launch;
    expect(launch.paramsText).toBe(YAML_PARAMS.replace("GRCh38", "GRCm39"));
    // No saved compute env or work dir: the named env's.
    expect(launch).toMatchObject({
      computeEnvId: "ce-big",
      workDir: "s3://big/work",
      revision: "dev",
      runName: "sarek-nightly",
    });
    const labels = ["nightly", "team"].map((n) => emulator.state.labels.byName(n, 42)!.id);
    expect(runOf(workflowId).labelIds).toEqual(labels);
  });

  test("five launches at once with a label that does not exist yet: one creates it, all launch with it", async () => {
    // The creations are held until all five were sent, so that every launch looked the label
    // up before it existed: the first creates it, the four others are answered 409.
    let arrived = 0;
    let open: () => void = () => {};
    const all = new Promise<void>((resolve) => (open = resolve));
    emulator.setHandler("CreateLabel", async () => {
      if (++arrived === 5) open();
      await Promise.race([all, new Promise((resolve) => setTimeout(resolve, 2000))]);
      return undefined;
    });
    const client = clientOf(emulator);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => launchPipeline(client, "rnaseq", { labels: ["fresh"] })),
    );
    const fresh = emulator.state.labels.list(42).filter((l) => l.name === "fresh");
    expect(fresh).toHaveLength(1);
    for (const { workflowId } of results)
      expect(runOf(workflowId).labelIds).toEqual([fresh[0]!.id]);
    expect(results.map((r) => r.createdLabels).sort()).toEqual([[], [], [], [], ["fresh"]]);
    expect(
      emulator.requests
        .filter((r) => r.operationId === "CreateLabel")
        .map((r) => r.status)
        .sort(),
    ).toEqual([200, 409, 409, 409, 409]);
  });

  test('"env" is the plain label beside resource labels env=…; "team" with only team=bio is created plain', async () => {
    const env = emulator.state.labels.add({ name: "env", workspaceId: 42 });
    emulator.state.labels.add({ name: "env", value: "prod", resource: true, workspaceId: 42 });
    const client = clientOf(emulator);
    const { workflowId, createdLabels } = await launchPipeline(client, "rnaseq", {
      labels: ["env", "team"],
    });
    const team = emulator.state.labels
      .list(42)
      .find((l) => l.name === "team" && l.value === undefined);
    expect(createdLabels).toEqual(["team"]);
    expect(runOf(workflowId).labelIds).toEqual([env.id, team!.id]);
    const again = await launchPipeline(client, "rnaseq", { labels: ["team"] });
    expect(runOf(again.workflowId).labelIds).toEqual([team!.id]);
  });

  test("a repository URL runs on the workspace's primary compute env and its work dir", async () => {
    const { workflowId } = await launchPipeline(
      clientOf(emulator),
      "https://github.com/nextflow-io/hello",
      {
        params: { greeting: "hi" },
      },
    );
    expect(runOf(workflowId).launch).toMatchObject({
      pipeline: "https://github.com/nextflow-io/hello",
      computeEnvId: "ce-prod",
      workDir: "s3://prod/work",
      paramsText: '{\n  "greeting": "hi"\n}',
    });
  });

  test("a mistyped compute env or pipeline is a NameNotFoundError, and nothing is launched", async () => {
    const before = launched().length;
    await expect(
      launchPipeline(clientOf(emulator), "rnaseq", { computeEnv: "aws-bigg" }),
    ).rejects.toMatchObject({
      name: "NameNotFoundError",
      kind: "compute environment",
      candidates: ["aws-big"],
    });
    await expect(launchPipeline(clientOf(emulator), "rna-seq")).rejects.toMatchObject({
      name: "NameNotFoundError",
      kind: "pipeline",
      candidates: ["rnaseq"],
    });
    expect(launched().length).toBe(before);
  });

  test("a workspace without a primary compute env says so, naming its compute envs", async () => {
    emulator.state.computeEnvs.add({ name: "gcp", workspaceId: 43, primary: false });
    const error = await launchPipeline(
      clientOf(emulator).withWorkspace(43),
      "https://github.com/nextflow-io/hello",
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NameNotFoundError);
    expect((error as Error).message).toBe(
      'Workspace 43 has no primary AVAILABLE compute environment; name one with `computeEnv` (available: "gcp")',
    );
  });

  test("wait: resolves once the run has ended, with the run", async () => {
    emulator.setHandler("DescribeWorkflow", (request) => {
      const id = String(request.params.workflowId);
      const status = emulator.state.runs.get(id)?.status;
      if (status === "SUBMITTED" || status === "RUNNING") emulator.state.runs.advance(id);
      return undefined;
    });
    const { workflowId, run } = await launchPipeline(clientOf(emulator), "rnaseq", {
      wait: { ...FAST, maxWaitMs: 60_000 },
    });
    expect(run).toMatchObject({ id: workflowId, status: "SUCCEEDED" });
  });
});

describe("relaunchRun", () => {
  test("without resume: a fresh run of the same configuration, params merged", async () => {
    const { workflowId: first } = await launchPipeline(clientOf(emulator), "rnaseq");
    const { workflowId } = await relaunchRun(clientOf(emulator), first, {
      resume: false,
      params: { outdir: "s3://out/again" },
      computeEnv: "aws-big",
    });
    const launch = runOf(workflowId).launch;
    expect(launch).toMatchObject({
      resume: false,
      computeEnvId: "ce-big",
      revision: "3.14.0",
      id: runOf(first).launchId,
    });
    await expect(parseParamsText(launch.paramsText as string)).resolves.toMatchObject({
      input: "s3://in/a.csv",
      outdir: "s3://out/again",
    });
  });

  test("resume: the same session and work dir, from the commit the run resolved", async () => {
    const earlier = emulator.state.runs.add({
      workspaceId: 42,
      status: "FAILED",
      launch: {
        pipeline: "https://github.com/nf-core/rnaseq",
        computeEnvId: "ce-prod",
        workDir: "s3://prod/work",
        revision: "3.14.0",
        paramsText: "{}",
      },
    });
    // Resume is the default, as with tw.
    const { workflowId } = await relaunchRun(clientOf(emulator), earlier.id);
    expect(runOf(workflowId).launch).toMatchObject({
      id: earlier.launchId,
      resume: true,
      sessionId: earlier.sessionId,
      revision: earlier.commitId,
      workDir: "s3://prod/work",
    });
  });

  test("resume without a commit to resume from is a ResumeUnavailableError", async () => {
    // Cancelled before it started: it never resolved a commit.
    const earlier = emulator.state.runs.add({ workspaceId: 42, status: "CANCELLED" }).id;
    const before = launched().length;
    await expect(relaunchRun(clientOf(emulator), earlier)).rejects.toBeInstanceOf(
      ResumeUnavailableError,
    );
    expect(launched().length).toBe(before);
    // Relaunched afresh, it runs.
    await expect(
      relaunchRun(clientOf(emulator), earlier, { resume: false }),
    ).resolves.toHaveProperty("workflowId");
  });

  test('resume: "if-available" resumes when it can, else runs afresh; `resumed` says which', async () => {
    const never = emulator.state.runs.add({ workspaceId: 42, status: "CANCELLED" });
    const fresh = await relaunchRun(clientOf(emulator), never.id, { resume: "if-available" });
    expect(fresh.resumed).toBe(false);
    expect(runOf(fresh.workflowId).launch).toMatchObject({ resume: false });
    const ran = emulator.state.runs.add({ workspaceId: 42, status: "FAILED" });
    const resumed = await relaunchRun(clientOf(emulator), ran.id, { resume: "if-available" });
    expect(resumed.resumed).toBe(true);
    expect(runOf(resumed.workflowId).launch).toMatchObject({
      resume: true,
      sessionId: ran.sessionId,
      revision: ran.commitId,
    });
  });
});
