import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ForbiddenError, launchPipeline, relaunchRun, toLaunchRequest } from "../../src/index.js";
import type { Emulator } from "../../src/testing/index.js";
import { ONE_PIPELINE, clientOf, seededEmulator, servedSince } from "./setup.js";

let emulator: Emulator;
beforeAll(async () => {
  emulator = await seededEmulator(ONE_PIPELINE);
});
afterAll(() => emulator.close());

/** How many of each operation the emulator served since `from`. */
const counted = (from: number) => {
  const counts: Record<string, number> = {};
  for (const id of servedSince(emulator, from)) counts[id ?? "?"] = (counts[id ?? "?"] ?? 0) + 1;
  return counts;
};
// The Nextflow catalog's reads: test/automation/nextflow-version.test.ts (API 1.187.0+).
const SETTINGS = { computeEnv: "aws-big", labels: ["nightly", "team=bio"] };

describe("launches of one client family reuse what it read", () => {
  test("N launches: N launch calls, and each read once, shared by concurrent launches", async () => {
    const client = clientOf(emulator);
    const from = emulator.requests.length;
    const launches = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        launchPipeline(client, "rnaseq", { ...SETTINGS, params: { sample: `s${i}` } }),
      ),
    );
    // Then more, one after the other, from a client derived from it (one family).
    for (const i of [12, 13, 14]) {
      await launchPipeline(client.withOptions({}), "rnaseq", {
        ...SETTINGS,
        params: { sample: `s${i}` },
      });
    }
    expect(counted(from)).toEqual({
      ListPipelines: 1,
      DescribePipelineLaunch: 1,
      ListComputeEnvs: 1,
      DescribeComputeEnv: 1,
      ListLabels: 2,
      CreateWorkflowLaunch: 15,
    });
    // Each launch sent its own params over the same saved launch and compute environment.
    const run = emulator.state.runs.get(launches[3]!.workflowId)!;
    expect(JSON.parse(run.launch.paramsText as string)).toEqual({ input: "a.csv", sample: "s3" });
    expect(run.launch).toMatchObject({ computeEnvId: "ce-big", workDir: "s3://big/work" });
    const labels = ["nightly", "team"].map((n) => emulator.state.labels.byName(n, 42)!.id);
    expect(run.labelIds).toEqual(labels);
  });

  test("another client family reads again: nothing is shared between unrelated clients", async () => {
    await launchPipeline(clientOf(emulator), "rnaseq", SETTINGS);
    const from = emulator.requests.length;
    await launchPipeline(clientOf(emulator), "rnaseq", SETTINGS);
    expect(counted(from)).toMatchObject({ DescribePipelineLaunch: 1, DescribeComputeEnv: 1 });
  });

  test("after this client updates the pipeline, the next launch reads its saved launch again", async () => {
    const client = clientOf(emulator);
    await launchPipeline(client, "rnaseq");
    const pipelineId = emulator.state.pipelines.byName("rnaseq", 42)!.id;
    const { launch } = await client.GET("/pipelines/{pipelineId}/launch", {
      params: { path: { pipelineId } },
    });
    await client.PUT("/pipelines/{pipelineId}", {
      params: { path: { pipelineId } },
      body: { launch: { ...toLaunchRequest(launch!), revision: "dev" } },
    });
    const from = emulator.requests.length;
    await launchPipeline(client, "rnaseq");
    // The pipeline list too: an update may rename it. (The changed launch is a new draft
    // version here, so the default launch read again is the same.)
    expect(servedSince(emulator, from)).toEqual([
      "ListPipelines",
      "DescribePipelineLaunch",
      "CreateWorkflowLaunch",
    ]);
  });

  test("a pipeline replaced by someone else: the launch answering 403 reads its launch, then its name, again", async () => {
    const client = clientOf(emulator);
    await launchPipeline(client, "rnaseq");
    // Another process deletes the pipeline and creates it again, under a new id.
    const old = emulator.state.pipelines.byName("rnaseq", 42)!;
    emulator.state.pipelines.delete(old.id);
    const renewed = emulator.state.pipelines.add({
      name: "rnaseq",
      workspaceId: 42,
      repository: "https://github.com/nf-core/rnaseq",
      launch: { computeEnvId: "ce-prod", revision: "3.15.0" },
    });
    const from = emulator.requests.length;
    const { workflowId } = await launchPipeline(client, "rnaseq");
    expect(emulator.requests.slice(from).map((r) => `${r.operationId} ${r.status}`)).toEqual([
      "CreateWorkflowLaunch 403",
      "DescribePipelineLaunch 403",
      "ListPipelines 200",
      "DescribePipelineLaunch 200",
      "CreateWorkflowLaunch 200",
    ]);
    expect(emulator.state.runs.get(workflowId)).toMatchObject({
      pipelineId: renewed.id,
      launch: { revision: "3.15.0" },
    });
  });

  test("a launch refused with 403 from a kept launch unchanged: the caller's error, nothing sent twice", async () => {
    const client = clientOf(emulator);
    await launchPipeline(client, "rnaseq");
    emulator.setHandler("CreateWorkflowLaunch", () => ({ status: 403, body: {} }));
    try {
      const from = emulator.requests.length;
      await expect(launchPipeline(client, "rnaseq")).rejects.toBeInstanceOf(ForbiddenError);
      expect(servedSince(emulator, from)).toEqual([
        "CreateWorkflowLaunch",
        "DescribePipelineLaunch",
      ]);
    } finally {
      emulator.clearHandlers();
    }
  });

  test("relaunches read each run, and the labels once", async () => {
    const client = clientOf(emulator);
    const runs = await Promise.all(
      [1, 2, 3].map(() => launchPipeline(client, "rnaseq", { computeEnv: "aws-big" })),
    );
    const from = emulator.requests.length;
    for (const { workflowId } of runs) {
      await relaunchRun(client, workflowId, { resume: false, labels: ["nightly"] });
    }
    expect(counted(from)).toEqual({
      DescribeWorkflow: 3,
      DescribeWorkflowLaunch: 3,
      ListLabels: 1,
      CreateWorkflowLaunch: 3,
    });
  });
});
