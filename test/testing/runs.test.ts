import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startEmulator, type Emulator } from "../../src/testing/index.js";
import { api, ERROR_ID, expectAnswer } from "./http.js";

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({
    rateLimit: false,
    seed: {
      workspaces: [
        { org: "acme", name: "prod", id: 42 },
        { org: "acme", name: "dev", id: 43 },
        { org: "acme", name: "empty", id: 44 },
      ],
      computeEnvs: [
        { id: "ce42", name: "aws", workspaceId: 42 },
        { id: "ce43", name: "aws", workspaceId: 43 },
        { id: "busy", name: "new", workspaceId: 42, status: "CREATING", primary: false },
      ],
      pipelines: [
        { name: "rnaseq", workspaceId: 42, launch: { computeEnvId: "ce42", revision: "3.14" } },
      ],
      labels: [
        { id: 5, name: "nightly", workspaceId: 42 },
        { id: 6, name: "other", workspaceId: 43 },
      ],
    },
  });
});
afterAll(() => emulator.close());

async function launch(workspaceId: number, launchBody: unknown, status = 200): Promise<any> {
  return expectAnswer(
    emulator,
    "POST /workflow/launch",
    `/workflow/launch?workspaceId=${workspaceId}`,
    {
      body: { launch: launchBody },
      status,
    },
  );
}

async function expectRejected(workspaceId: number, launchBody: unknown, detail: RegExp) {
  const response = await api(emulator, `/workflow/launch?workspaceId=${workspaceId}`, {
    method: "POST",
    body: launchBody === undefined ? {} : { launch: launchBody },
  });
  expect(response.status).toBe(400);
  const { message } = (await response.json()) as { message: string };
  expect(message).toMatch(ERROR_ID);
  expect(message).toMatch(detail);
}

describe("launch rejects what the service rejects", () => {
  const repo = "https://github.com/nf-core/rnaseq";

  test("no launch, no pipeline, no compute env and no primary one: 400 with an Error ID", async () => {
    await expectRejected(42, undefined, /Missing launch/);
    await expectRejected(42, { computeEnvId: "ce42" }, /Missing pipeline/);
    await expectRejected(44, { pipeline: repo }, /Missing compute environment/);
    await expectRejected(
      42,
      { pipeline: repo, computeEnvId: "busy" },
      /not available \(CREATING\)/,
    );
    expect(emulator.state.runs.all()).toHaveLength(0);
  });

  test("a compute env, saved launch or label of another workspace, or unknown: 403", async () => {
    await launch(43, { pipeline: repo, computeEnvId: "ce42" }, 403);
    await launch(42, { pipeline: repo, computeEnvId: "nope" }, 403);
    await launch(42, { pipeline: repo, labelIds: [6] }, 403);
    const saved = emulator.state.pipelines.byName("rnaseq", 42)!;
    await launch(43, { id: saved.launchId, pipeline: repo }, 403);
    await launch(42, { id: "unknown", pipeline: repo }, 403);
    expect(emulator.state.runs.all()).toHaveLength(0);
  });

  test("the primary compute env is used when none is named; a saved launch links its pipeline", async () => {
    const saved = emulator.state.pipelines.byName("rnaseq", 42)!;
    const { workflowId } = await launch(42, { id: saved.launchId, labelIds: [5] });
    const run = emulator.state.runs.get(workflowId)!;
    expect(run).toMatchObject({
      workspaceId: 42,
      pipelineId: saved.id,
      pipeline: saved.repository,
      computeEnvId: "ce42",
      labelIds: [5],
      status: "SUBMITTED",
    });
    const resumable = async () =>
      (
        await expectAnswer(
          emulator,
          "GET /workflow/{workflowId}/launch",
          `/workflow/${workflowId}/launch?workspaceId=42`,
        )
      ).launch.resumeCommitId;
    // Nextflow resolves the commit when the run starts; before, there is nothing to resume from.
    expect(await resumable()).toBeNull();
    emulator.state.runs.advance(workflowId);
    expect(await resumable()).toMatch(/^[0-9a-f]{40}$/);
    const { launch: described } = await expectAnswer(
      emulator,
      "GET /workflow/{workflowId}/launch",
      `/workflow/${workflowId}/launch?workspaceId=42`,
    );
    expect(described).toMatchObject({
      id: run.launchId,
      pipelineId: saved.id,
      computeEnv: { id: "ce42" },
      sessionId: run.sessionId,
      resumeCommitId: run.commitId,
      resumeDir: "s3://emulated-bucket/work",
    });
    // Nothing the launch did not have is invented (a sampled script would be relaunched).
    for (const unset of ["configText", "paramsText", "mainScript", "preRunScript"]) {
      expect(described[unset] ?? null).toBeNull();
    }
    emulator.state.runs.delete(workflowId);
  });

  test("a run's own launch id relaunches it, in its workspace only", async () => {
    const earlier = emulator.state.runs.add({
      workspaceId: 42,
      status: "FAILED",
      launch: { pipeline: "https://github.com/nextflow-io/hello", computeEnvId: "ce42" },
    });
    const { workflowId } = await launch(42, { id: earlier.launchId, resume: true });
    expect(emulator.state.runs.get(workflowId)).toMatchObject({
      pipeline: "https://github.com/nextflow-io/hello",
      launch: { resume: true },
    });
    await launch(43, { id: earlier.launchId, computeEnvId: "ce43" }, 403);
    emulator.state.runs.delete(workflowId);
    emulator.state.runs.delete(earlier.id);
  });
});

describe("runs advance on the test's step, with tasks and a growing log", () => {
  test("SUBMITTED → RUNNING → tasks complete one by one → SUCCEEDED", async () => {
    const { workflowId: id } = await launch(42, {
      pipeline: "https://github.com/nf-core/rnaseq",
      runName: "stepwise",
    });
    const describe = async () =>
      (await expectAnswer(emulator, "GET /workflow/{workflowId}", `/workflow/${id}?workspaceId=42`))
        .workflow;
    const tasks = async () =>
      (
        await expectAnswer(
          emulator,
          "GET /workflow/{workflowId}/tasks",
          `/workflow/${id}/tasks?workspaceId=42`,
        )
      ).tasks.map((t: { task: { name: string; status: string } }) => [t.task.name, t.task.status]);

    expect(await describe()).toMatchObject({ status: "SUBMITTED", start: null, complete: null });
    expect(await tasks()).toEqual([]);
    emulator.state.runs.advance(id);
    expect((await describe()).status).toBe("RUNNING");
    expect(await tasks()).toEqual([["FASTQC (sample_1)", "RUNNING"]]);
    emulator.state.runs.advance(id);
    expect(await tasks()).toEqual([
      ["FASTQC (sample_1)", "COMPLETED"],
      ["MULTIQC", "RUNNING"],
    ]);
    emulator.state.runs.advance(id);
    expect(await describe()).toMatchObject({ status: "SUCCEEDED", success: true });
    expect(() => emulator.state.runs.advance(id)).toThrow(/has ended/);
  });

  test("the log pages by forwardToken; a follower sees each line once, while it grows", async () => {
    const run = emulator.state.runs.add({ workspaceId: 42, tasks: ["A", "B", "C"] });
    const page = async (next?: string, maxLength?: number) => {
      const query = new URLSearchParams({ workspaceId: "42" });
      if (next !== undefined) query.set("next", next);
      if (maxLength !== undefined) query.set("maxLength", String(maxLength));
      return (
        await expectAnswer(
          emulator,
          "GET /workflow/{workflowId}/log",
          `/workflow/${run.id}/log?${query}`,
        )
      ).log;
    };
    const first = await page();
    expect(first).toMatchObject({
      entries: [],
      pending: true,
      message: "Log not available yet",
      forwardToken: "0",
    });
    const seen: string[] = [];
    let token: string = first.forwardToken;
    const follow = async () => {
      for (;;) {
        const next = await page(token, 40);
        seen.push(...next.entries);
        token = next.forwardToken;
        if (!next.truncated) return next;
      }
    };
    while (run.status !== "SUCCEEDED") {
      emulator.state.runs.advance(run.id);
      await follow();
    }
    const last = await follow();
    expect(last.pending).toBe(false);
    expect(seen).toEqual(run.log);
    expect(seen.filter((l) => l.includes("Submitted process"))).toHaveLength(3);
    expect(last.downloads.map((d: { fileName: string }) => d.fileName)).toEqual([
      `nf-${run.id}.txt`,
      `nf-${run.id}.log`,
    ]);
    const download = await api(
      emulator,
      `/workflow/${run.id}/download?workspaceId=42&fileName=nf-${run.id}.txt`,
    );
    expect(await download.text()).toBe(`${run.log.join("\n")}\n`);
    expect(
      (await api(emulator, `/workflow/${run.id}/download?workspaceId=42&fileName=other.txt`))
        .status,
    ).toBe(404);
  });

  test("finish FAILED fails the running task; its logs and error are there", async () => {
    const run = emulator.state.runs.add({ workspaceId: 42, status: "RUNNING" });
    emulator.state.runs.finish(run.id, "FAILED", "Out of memory");
    const { workflow } = await expectAnswer(
      emulator,
      "GET /workflow/{workflowId}",
      `/workflow/${run.id}?workspaceId=42`,
    );
    expect(workflow).toMatchObject({
      status: "FAILED",
      success: false,
      errorMessage: "Out of memory",
      exitStatus: 1,
    });
    const { task } = await expectAnswer(
      emulator,
      "GET /workflow/{workflowId}/task/{taskId}",
      `/workflow/${run.id}/task/1?workspaceId=42`,
    );
    expect(task).toMatchObject({ status: "FAILED", exitStatus: 1, errorMessage: "Out of memory" });
    const { log } = await expectAnswer(
      emulator,
      "GET /workflow/{workflowId}/log/{taskId}",
      `/workflow/${run.id}/log/1?workspaceId=42`,
    );
    expect(log).toMatchObject({
      entries: ["Running FASTQC (sample_1)"],
      pending: false,
    });
    const err = await api(
      emulator,
      `/workflow/${run.id}/download/1?workspaceId=42&fileName=.command.err`,
    );
    expect(await err.text()).toBe("Out of memory\n");
    // A task not reached yet is not known.
    await expectAnswer(
      emulator,
      "GET /workflow/{workflowId}/task/{taskId}",
      `/workflow/${run.id}/task/2?workspaceId=42`,
      { status: 403 },
    );
  });

  test("a seeded status is reached by the same steps", () => {
    const failed = emulator.state.runs.add({ status: "FAILED" });
    expect(failed.tasks.map((t) => t.status)).toEqual(["FAILED", "NEW"]);
    const cancelled = emulator.state.runs.add({ status: "CANCELLED" });
    expect([cancelled.status, cancelled.start]).toEqual(["CANCELLED", undefined]);
    const done = emulator.state.runs.add({ status: "SUCCEEDED" });
    expect(done.tasks.map((t) => t.status)).toEqual(["COMPLETED", "COMPLETED"]);
  });

  test("cancel through the API aborts the running task", async () => {
    const run = emulator.state.runs.add({ workspaceId: 42, status: "RUNNING" });
    await expectAnswer(
      emulator,
      "POST /workflow/{workflowId}/cancel",
      `/workflow/${run.id}/cancel?workspaceId=42`,
      { status: 204 },
    );
    expect([run.status, run.tasks[0]!.status]).toEqual(["CANCELLED", "ABORTED"]);
  });

  test("a run of another workspace, and its tasks and log, are a 403", async () => {
    const run = emulator.state.runs.add({ workspaceId: 43, status: "RUNNING" });
    for (const path of ["", "/tasks", "/log", "/log/1", "/task/1", "/download", "/launch"]) {
      expect((await api(emulator, `/workflow/${run.id}${path}?workspaceId=42`)).status).toBe(403);
    }
    expect((await api(emulator, `/workflow/${run.id}/log?workspaceId=43`)).status).toBe(200);
  });
});

describe("autoAdvance", () => {
  test("each describe moves an active run one step, and a creating compute env to AVAILABLE", async () => {
    const auto = await startEmulator({ autoAdvance: true, rateLimit: false });
    try {
      const run = auto.state.runs.add({ tasks: ["ONLY"] });
      const statuses: string[] = [];
      for (let i = 0; i < 4; i++) {
        const { workflow } = await expectAnswer(
          auto,
          "GET /workflow/{workflowId}",
          `/workflow/${run.id}`,
        );
        statuses.push(workflow.status);
      }
      expect(statuses).toEqual(["RUNNING", "SUCCEEDED", "SUCCEEDED", "SUCCEEDED"]);
      const env = auto.state.computeEnvs.add({ name: "ce", status: "CREATING" });
      const { computeEnv } = await expectAnswer(
        auto,
        "GET /compute-envs/{computeEnvId}",
        `/compute-envs/${env.id}`,
      );
      expect(computeEnv.status).toBe("AVAILABLE");
    } finally {
      await auto.close();
    }
  });
});

describe("runSteps: runs that move on their own", () => {
  test("onList: a list poll moves the active runs it answered, so a watch of the list sees them end", async () => {
    const e = await startEmulator({ runSteps: { onList: true }, rateLimit: false });
    try {
      for (let i = 0; i < 3; i++) e.state.runs.add({ workspaceId: 42 });
      // As watchRuns polls: the runs still going, one list call per poll.
      const polls: string[][] = [];
      for (let poll = 0; poll < 10; poll++) {
        const { workflows } = await expectAnswer(
          e,
          "GET /workflow",
          "/workflow?workspaceId=42&search=status%3ASUBMITTED%20status%3ARUNNING",
        );
        if (workflows.length === 0) break;
        polls.push(workflows.map((w: any) => w.workflow.status));
      }
      expect(polls).toEqual([
        ["SUBMITTED", "SUBMITTED", "SUBMITTED"],
        ["RUNNING", "RUNNING", "RUNNING"],
        ["RUNNING", "RUNNING", "RUNNING"],
      ]);
      expect(e.state.runs.list(42).map((r) => r.status)).toEqual([
        "SUCCEEDED",
        "SUCCEEDED",
        "SUCCEEDED",
      ]);
    } finally {
      await e.close();
    }
  });

  test("everyMs: a run takes one step per everyMs after its launch, each step dated when due", async () => {
    const e = await startEmulator({ runSteps: { everyMs: 1 }, rateLimit: false });
    try {
      const run = e.state.runs.add({ workspaceId: 42, tasks: ["ONLY"] });
      // Two steps end it: 1 ms each; any wait longer than that sees it ended.
      await new Promise((resolve) => setTimeout(resolve, 20));
      const { workflow } = await expectAnswer(
        e,
        "GET /workflow/{workflowId}",
        `/workflow/${run.id}?workspaceId=42`,
      );
      expect(workflow.status).toBe("SUCCEEDED");
    } finally {
      await e.close();
    }
    const timed = await startEmulator({ rateLimit: false });
    try {
      const run = timed.state.runs.add({ tasks: ["A", "B"] });
      const added = Date.now();
      timed.state.runs.catchUp(60_000, added + 150_000);
      // Two steps due (RUNNING at +1 min, A done and B started at +2 min), the third not yet.
      expect(run.status).toBe("RUNNING");
      expect(run.tasks.map((t) => t.status)).toEqual(["COMPLETED", "RUNNING"]);
      const minutes = (time?: string) => Math.round((Date.parse(time!) - added) / 60_000);
      expect([minutes(run.start), minutes(run.tasks[0]!.complete)]).toEqual([1, 2]);
      timed.state.runs.catchUp(60_000, added + 180_000);
      expect([run.status, minutes(run.complete)]).toEqual(["SUCCEEDED", 3]);
    } finally {
      await timed.close();
    }
  });

  test("everyMs must be more than 0", async () => {
    await expect(startEmulator({ runSteps: { everyMs: 0 } })).rejects.toThrow(
      "runSteps.everyMs is the milliseconds between a run's steps, more than 0; got 0",
    );
  });
});
