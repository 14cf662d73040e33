import { afterEach, describe, expect, test } from "vitest";
import { startEmulator, type Emulator, type Seed } from "../../src/testing/index.js";
import { api, expectAnswer } from "./http.js";

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function seeded(seed: Seed): Promise<Emulator> {
  emulator = await startEmulator({ seed, rateLimit: false });
  return emulator;
}

async function text(e: Emulator, path: string): Promise<string> {
  const response = await api(e, path);
  expect(response.status, path).toBe(200);
  return response.text();
}

describe("runs seeded as they happened", () => {
  test("submit, start and complete as seeded; duration follows, in list and describe", async () => {
    const e = await seeded({
      runs: [
        {
          id: "run1",
          workspaceId: 42,
          status: "FAILED",
          submit: "2024-05-02T10:00:00Z",
          start: "2024-05-02T10:05:00Z",
          complete: "2024-05-02T11:35:30Z",
        },
      ],
    });
    const times = {
      submit: "2024-05-02T10:00:00Z",
      start: "2024-05-02T10:05:00Z",
      complete: "2024-05-02T11:35:30Z",
      duration: 5_430_000,
      status: "FAILED",
    };
    const { workflow } = await expectAnswer(
      e,
      "GET /workflow/{workflowId}",
      "/workflow/run1?workspaceId=42",
    );
    expect(workflow).toMatchObject(times);
    const { workflows } = await expectAnswer(e, "GET /workflow", "/workflow?workspaceId=42");
    expect(workflows[0].workflow).toMatchObject(times);
    // The failed task happened within the run, not at the time the test seeded it.
    const { task } = await expectAnswer(
      e,
      "GET /workflow/{workflowId}/task/{taskId}",
      "/workflow/run1/task/1?workspaceId=42",
    );
    expect(task.complete >= times.start && task.complete <= times.complete).toBe(true);
  });

  test("tasks with statuses are taken as given: two failures, exit 137 kept, multi-line stderr in order", async () => {
    const e = await seeded({
      runs: [
        {
          id: "run2",
          status: "FAILED",
          dateCreated: "2024-05-02T10:00:00Z",
          complete: "2024-05-02T10:30:00Z",
          tasks: [
            { process: "FASTQC", tag: "s1", status: "COMPLETED", stdout: "fastqc s1\nok\n" },
            {
              process: "STAR_ALIGN",
              tag: "s1",
              status: "FAILED",
              exitStatus: 137,
              stdout: ["aligning s1"],
              stderr: "Killed\nOut of memory: 16 GB requested\n",
            },
            {
              process: "STAR_ALIGN",
              tag: "s2",
              status: "FAILED",
              exitStatus: 1,
              errorMessage: "bad index",
            },
            { process: "MULTIQC", status: "ABORTED" },
          ],
        },
      ],
    });
    const { tasks } = await expectAnswer(
      e,
      "GET /workflow/{workflowId}/tasks",
      "/workflow/run2/tasks",
    );
    expect(tasks.map((t: any) => [t.task.name, t.task.status, t.task.exitStatus])).toEqual([
      ["FASTQC (s1)", "COMPLETED", 0],
      ["STAR_ALIGN (s1)", "FAILED", 137],
      ["STAR_ALIGN (s2)", "FAILED", 1],
      ["MULTIQC", "ABORTED", null],
    ]);
    expect(await text(e, "/workflow/run2/download/2?fileName=.command.err")).toBe(
      "Killed\nOut of memory: 16 GB requested\n",
    );
    expect(await text(e, "/workflow/run2/download/2?fileName=.command.log")).toBe(
      "aligning s1\nKilled\nOut of memory: 16 GB requested\n",
    );
    expect(await text(e, "/workflow/run2/download/1?fileName=.command.out")).toBe(
      "fastqc s1\nok\n",
    );
    expect(await text(e, "/workflow/run2/download/3?fileName=.command.err")).toBe("bad index\n");
    const { workflow } = await expectAnswer(e, "GET /workflow/{workflowId}", "/workflow/run2");
    expect(workflow).toMatchObject({
      status: "FAILED",
      exitStatus: 1,
      errorMessage: "Process `STAR_ALIGN` terminated with an error exit status (137)",
      duration: 1_800_000,
    });
    const log = await text(e, "/workflow/run2/download?fileName=nf-run2.txt");
    expect(log).toContain("Process `STAR_ALIGN (s1)` terminated with an error exit status (137)");
    expect(log).toContain("Failed      : 2");
  });

  test("a run's ending: advanced, it fails at the named task with that exit status and stderr", async () => {
    const e = await seeded({
      runs: [
        {
          id: "run3",
          tasks: ["FASTQC", "STAR_ALIGN", "MULTIQC"],
          ending: { status: "FAILED", task: "STAR_ALIGN", exitStatus: 137, stderr: "Killed\noom" },
        },
      ],
    });
    const steps: string[] = [];
    const run = e.state.runs.get("run3")!;
    while (run.status === "SUBMITTED" || run.status === "RUNNING") {
      e.state.runs.advance("run3");
      steps.push(run.tasks.map((t) => t.status[0]).join(""));
    }
    expect(steps).toEqual(["RNN", "CRN", "CFN"]);
    expect(run.status).toBe("FAILED");
    expect(await text(e, "/workflow/run3/download/2?fileName=.command.err")).toBe("Killed\noom\n");
    const { task } = await expectAnswer(
      e,
      "GET /workflow/{workflowId}/task/{taskId}",
      "/workflow/run3/task/2",
    );
    expect(task).toMatchObject({ status: "FAILED", exitStatus: 137 });
  });

  test("seeded output of a task still to run shows once it starts", async () => {
    const e = await seeded({
      runs: [{ id: "run4", tasks: [{ process: "HELLO", stdout: "Hello\nWorld" }] }],
    });
    e.state.runs.advance("run4");
    e.state.runs.advance("run4");
    expect(await text(e, "/workflow/run4/download/1?fileName=.command.out")).toBe("Hello\nWorld\n");
  });
});

describe("launches and relaunches end as seeded, and resume as the service does", () => {
  const seed: Seed = {
    workspaces: [{ org: "acme", name: "prod", id: 42 }],
    computeEnvs: [{ id: "ce1", name: "aws", workspaceId: 42, workDir: "s3://work" }],
    pipelines: [
      {
        name: "rnaseq",
        workspaceId: 42,
        launch: { computeEnvId: "ce1", pipeline: "https://github.com/nf-core/rnaseq" },
        ending: { status: "FAILED", task: "MULTIQC", exitStatus: 2 },
      },
    ],
    runs: [
      {
        id: "failed1",
        workspaceId: 42,
        runName: "nightly_rnaseq",
        status: "FAILED",
        launch: {
          pipeline: "https://github.com/nf-core/rnaseq",
          computeEnvId: "ce1",
          workDir: "s3://work",
        },
        relaunchEnding: { status: "FAILED", task: "FASTQC", exitStatus: 143 },
      },
    ],
  };

  /** Launches in workspace 42 and describes the new run. */
  async function launchAndDescribe(e: Emulator, launch: Record<string, unknown>) {
    const { workflowId } = await expectAnswer(
      e,
      "POST /workflow/launch",
      "/workflow/launch?workspaceId=42",
      {
        body: { launch },
      },
    );
    const { workflow } = await expectAnswer(
      e,
      "GET /workflow/{workflowId}",
      `/workflow/${workflowId}?workspaceId=42`,
    );
    return { workflowId: workflowId as string, workflow };
  }

  async function advanceToEnd(e: Emulator, id: string) {
    const run = e.state.runs.get(id)!;
    while (run.status === "SUBMITTED" || run.status === "RUNNING") e.state.runs.advance(id);
    return run;
  }

  test("a launch of a pipeline ends as the pipeline's ending says", async () => {
    const e = await seeded(seed);
    const pipeline = e.state.pipelines.byName("rnaseq", 42)!;
    const { workflowId } = await expectAnswer(
      e,
      "POST /workflow/launch",
      "/workflow/launch?workspaceId=42",
      {
        body: {
          launch: { id: pipeline.launchId, computeEnvId: "ce1", pipeline: pipeline.repository },
        },
      },
    );
    const run = await advanceToEnd(e, workflowId);
    expect(run.status).toBe("FAILED");
    expect(run.tasks.map((t) => [t.process, t.status, t.exitStatus])).toEqual([
      ["FASTQC", "COMPLETED", 0],
      ["MULTIQC", "FAILED", 2],
    ]);
  });

  test("a list of endings is taken in turn by the launches; a version's ending comes first", async () => {
    const e = await seeded({
      workspaces: [{ org: "acme", name: "prod", id: 42 }],
      computeEnvs: [{ id: "ce1", name: "aws", workspaceId: 42 }],
      pipelines: [
        {
          name: "sarek",
          workspaceId: 42,
          ending: [{ status: "SUCCEEDED" }, { status: "SUCCEEDED" }, { status: "FAILED" }],
          versions: [
            { name: "3.4", isDefault: true },
            { id: "broken", name: "3.5-rc", ending: { status: "FAILED", exitStatus: 137 } },
          ],
        },
      ],
    });
    const pipeline = e.state.pipelines.byName("sarek", 42)!;
    const endOf = async (launchId: string) => {
      const { workflowId } = await expectAnswer(
        e,
        "POST /workflow/launch",
        "/workflow/launch?workspaceId=42",
        { body: { launch: { id: launchId } } },
      );
      const run = await advanceToEnd(e, workflowId);
      return `${run.status} ${run.tasks.at(-1)!.exitStatus}`;
    };
    const defaults = [];
    for (let i = 0; i < 4; i++) defaults.push(await endOf(pipeline.launchId));
    expect(defaults).toEqual(["SUCCEEDED 0", "SUCCEEDED 0", "FAILED 1", "SUCCEEDED 0"]);
    expect(await endOf("broken")).toBe("FAILED 137");
    expect(await seeded({ pipelines: [{ name: "p", ending: [] }] }).catch(String)).toMatch(
      /A list of endings gives at least one/,
    );
  });

  test("a resume as tw sends it keeps the session, says resume: true, gets a new name, ends as seeded", async () => {
    const e = await seeded(seed);
    const source = e.state.runs.get("failed1")!;
    const { launch } = await expectAnswer(
      e,
      "GET /workflow/{workflowId}/launch",
      "/workflow/failed1/launch?workspaceId=42",
    );
    expect(launch.sessionId).toBe(source.sessionId);
    const { workflowId, workflow } = await launchAndDescribe(e, {
      id: source.launchId,
      sessionId: launch.sessionId,
      computeEnvId: "ce1",
      pipeline: launch.pipeline,
      workDir: launch.resumeDir,
      revision: launch.resumeCommitId,
      resume: true,
    });
    expect(workflow).toMatchObject({
      sessionId: source.sessionId,
      resume: true,
      projectName: "nf-core/rnaseq",
    });
    expect(workflow.runName).not.toBe("nightly_rnaseq");
    expect(workflow.runName).toMatch(/^[a-z]+_[a-z]+$/);
    const run = await advanceToEnd(e, workflowId);
    expect([run.status, run.tasks[0]!.exitStatus]).toEqual(["FAILED", 143]);
  });

  test("a relaunch without resume starts a new session; a given run name is kept", async () => {
    const e = await seeded(seed);
    const source = e.state.runs.get("failed1")!;
    const { workflow } = await launchAndDescribe(e, {
      id: source.launchId,
      sessionId: source.sessionId,
      computeEnvId: "ce1",
      pipeline: source.pipeline,
      resume: false,
      runName: "rerun",
    });
    expect(workflow.sessionId).not.toBe(source.sessionId);
    expect(workflow).toMatchObject({ resume: false, runName: "rerun" });
  });
});

describe("seeds say what they mean, or are refused saying why", () => {
  test("dates relative to now: -7h, -2d, -1d12h", async () => {
    const before = Date.now();
    const e = await seeded({
      runs: [
        {
          id: "last-night",
          workspaceId: 42,
          status: "SUCCEEDED",
          submit: "-7h",
          start: "-6h50m",
          complete: "-1h",
        },
      ],
    });
    const { workflow } = await expectAnswer(
      e,
      "GET /workflow/{workflowId}",
      "/workflow/last-night?workspaceId=42",
    );
    const ago = (field: string) => Math.round((before - Date.parse(workflow[field])) / 60_000);
    expect([ago("submit"), ago("dateCreated"), ago("start"), ago("complete")]).toEqual([
      420, 420, 410, 60,
    ]);
    expect(workflow.duration).toBe(350 * 60_000);
  });

  test("a date neither ISO 8601 nor relative is refused, showing both forms", async () => {
    await expect(seeded({ runs: [{ submit: "7h ago" }] })).rejects.toThrow(
      'Not a date: "7h ago". A seed\'s dates are ISO 8601 ("2024-05-02T01:00:00Z") or a time before now ("-7h", "-2d", "-1d12h"; units d, h, m, s).',
    );
    await expect(seeded({ runs: [{ submit: "-7y" }] })).rejects.toThrow('Not a date: "-7y"');
  });

  test("an unknown key is refused wherever it is, naming it, where it is and the known keys", async () => {
    const refusal = (seed: unknown) => seeded(seed as Seed).then(() => "accepted", String);
    expect(await refusal({ worksapces: [] })).toMatch(
      /^ConfigurationError: The seed has an unknown key "worksapces" \(did you mean "workspaces"\?\); the keys known there are user, organizations, workspaces, /,
    );
    expect(await refusal({ runs: [{ runName: "a" }, { cots: 3 }] })).toMatch(
      /The seed's runs\[1\] has an unknown key "cots" \(did you mean "cost"\?\); the keys known there are .*, cost, progress\.$/,
    );
    expect(await refusal({ runs: [{ tasks: ["FASTQC", { process: "X", exit: 1 }] }] })).toMatch(
      /The seed's runs\[0\]\.tasks\[1\] has an unknown key "exit" \(did you mean "exitStatus"\?\)/,
    );
    expect(
      await refusal({
        pipelines: [{ name: "p", ending: { status: "FAILED", failures: [{ exitCode: 1 }] } }],
      }),
    ).toMatch(/The seed's pipelines\[0\]\.ending\.failures\[0\] has an unknown key "exitCode"/);
    expect(await refusal({ runs: [{ progress: { cpuHours: 2 } }] })).toMatch(
      /The seed's runs\[0\]\.progress has an unknown key "cpuHours"; the keys known there are cpus, cpuTime, /,
    );
    expect(await refusal({ runs: [{ progress: { cpuTime: "2h" } }] })).toMatch(
      /The seed's runs\[0\]: progress\.cpuTime is a number, 0 or more, as the service answers it; got "2h"\.$/,
    );
    expect(await refusal({ runs: [{ cost: 1 }, { runName: "nightly", cost: "1.5" }] })).toMatch(
      /The seed's runs\[1\] \(nightly\): its cost \(USD\) is a number, 0 or more, or null for no cost, as the service answers it; got "1\.5"\.$/,
    );
    expect(await refusal({ runs: [{ launch: { computeEnvID: "ce1" } }] })).toMatch(
      /The seed's runs\[0\]\.launch has an unknown key "computeEnvID" \(did you mean "computeEnvId"\?\); the keys known there are .*pipeline.*revision/,
    );
    expect(await refusal({ user: { name: "x" } })).toMatch(
      /The seed's user has an unknown key "name"/,
    );
    expect(await refusal({ workspaces: [{ org: "a", name: "b", visiblity: "SHARED" }] })).toMatch(
      /The seed's workspaces\[0\] has an unknown key "visiblity" \(did you mean "visibility"\?\)/,
    );
  });
});
