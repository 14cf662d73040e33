import { afterEach, describe, expect, test } from "vitest";
import { startEmulator, type Emulator } from "../../src/testing/index.js";
import { api, expectAnswer } from "./http.js";

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function start(seed: Parameters<typeof startEmulator>[0] = {}): Promise<Emulator> {
  emulator = await startEmulator({
    rateLimit: false,
    ...seed,
    seed: {
      computeEnvs: [{ id: "ce1", name: "aws", workspaceId: 42, workDir: "s3://work" }],
      ...seed.seed,
    },
  });
  return emulator;
}

async function launch(e: Emulator, fields: Record<string, unknown>): Promise<string> {
  const body = { launch: { pipeline: "https://github.com/nf-core/rnaseq", ...fields } };
  const answer = await expectAnswer(e, "POST /workflow/launch", "/workflow/launch?workspaceId=42", {
    body,
  });
  return answer.workflowId;
}

async function tasksOf(e: Emulator, id: string) {
  const { tasks } = await expectAnswer(
    e,
    "GET /workflow/{workflowId}/tasks",
    `/workflow/${id}/tasks?workspaceId=42`,
  );
  return tasks.map(({ task }: any) => [task.name, task.status, task.exitStatus]);
}

describe("runs as the service describes them", () => {
  test("after: and before: compare the submission date (the docs' field), not dateCreated", async () => {
    const e = await start({
      seed: {
        runs: [
          { runName: "submitted-in-april", submit: "2024-04-01T08:00:00Z", workspaceId: 42 },
          {
            runName: "created-in-june",
            submit: "2024-05-02T10:00:00Z",
            dateCreated: "2024-06-01T00:00:00Z",
            workspaceId: 42,
          },
        ],
      },
    });
    const names = async (search: string) => {
      const query = new URLSearchParams({ workspaceId: "42", search });
      const body = await expectAnswer(e, "GET /workflow", `/workflow?${query}`);
      return body.workflows.map((w: any) => [w.workflow.runName, w.workflow.dateCreated]);
    };
    // A run seeded with a submission date alone was created then, as the service's runs are.
    expect(await names("before:2024-04-30")).toEqual([
      ["submitted-in-april", "2024-04-01T08:00:00Z"],
    ]);
    expect(await names("after:2024-05-02 before:2024-05-02")).toEqual([
      ["created-in-june", "2024-06-01T00:00:00Z"],
    ]);
    expect(await names("after:2024-05-03")).toEqual([]);
    expect(await names("after:2024-04-01T08:00:01Z before:2024-05-02T09:59:59Z")).toEqual([]);
  });

  test("an ending set with state.runs.update after the run is built is honoured", async () => {
    const e = await start();
    const id = await launch(e, { computeEnvId: "ce1" });
    e.state.runs.update(id, {
      ending: { status: "FAILED", task: "STAR_ALIGN", exitStatus: 137, stderr: "Killed" },
    });
    while (
      e.state.runs.get(id)!.status === "SUBMITTED" ||
      e.state.runs.get(id)!.status === "RUNNING"
    )
      e.state.runs.advance(id);
    expect(await tasksOf(e, id)).toEqual([
      ["FASTQC (sample_1)", "COMPLETED", 0],
      ["MULTIQC", "COMPLETED", 0],
      ["STAR_ALIGN", "FAILED", 137],
    ]);
    const err = await api(e, `/workflow/${id}/download/3?workspaceId=42&fileName=.command.err`);
    expect(await err.text()).toBe("Killed\n");
  });

  test("configProfiles are described; the launch record (GET /launch/{id}) has the run's name", async () => {
    const e = await start();
    const id = await launch(e, { computeEnvId: "ce1", configProfiles: ["test", "docker"] });
    const { workflow } = await expectAnswer(
      e,
      "GET /workflow/{workflowId}",
      `/workflow/${id}?workspaceId=42`,
    );
    expect(workflow.configProfiles).toEqual(["test", "docker"]);
    const { launch: record } = await expectAnswer(
      e,
      "GET /launch/{launchId}",
      `/launch/${workflow.launchId}?workspaceId=42`,
    );
    expect(record).toMatchObject({
      id: workflow.launchId,
      runName: workflow.runName,
      configProfiles: ["test", "docker"],
      pipeline: "https://github.com/nf-core/rnaseq",
      sessionId: workflow.sessionId,
      workDir: "s3://work",
    });
    expect(workflow.runName).toMatch(/^[a-z]+_[a-z]+$/);
    // Another workspace does not see it.
    await expectAnswer(e, "GET /launch/{launchId}", `/launch/${workflow.launchId}`, {
      status: 403,
    });
  });
});

describe("an ending with several failed tasks", () => {
  const ending = {
    status: "FAILED" as const,
    failures: [
      { task: "STAR_ALIGN (s1)", exitStatus: 137, stderr: "Killed\nout of memory" },
      { task: "STAR_ALIGN (s2)", exitStatus: 1, errorMessage: "bad index" },
    ],
  };

  test("a launched pipeline's runs fail at each listed task with its exit code and stderr", async () => {
    const e = await start({
      autoAdvance: true,
      seed: {
        pipelines: [
          {
            name: "rnaseq",
            workspaceId: 42,
            launch: { computeEnvId: "ce1" },
            ending,
          },
        ],
      },
    });
    const { pipelines } = await expectAnswer(e, "GET /pipelines", "/pipelines?workspaceId=42");
    const saved = await expectAnswer(
      e,
      "GET /pipelines/{pipelineId}/launch",
      `/pipelines/${pipelines[0].pipelineId}/launch?workspaceId=42`,
    );
    const id = await launch(e, { id: saved.launch.id });
    let status = "SUBMITTED";
    for (let polls = 0; polls < 10 && ["SUBMITTED", "RUNNING"].includes(status); polls++) {
      const { workflow } = await expectAnswer(
        e,
        "GET /workflow/{workflowId}",
        `/workflow/${id}?workspaceId=42`,
      );
      status = workflow.status;
    }
    expect(status).toBe("FAILED");
    expect(await tasksOf(e, id)).toEqual([
      ["FASTQC (sample_1)", "COMPLETED", 0],
      ["MULTIQC", "COMPLETED", 0],
      ["STAR_ALIGN (s1)", "FAILED", 137],
      ["STAR_ALIGN (s2)", "FAILED", 1],
    ]);
    const stderr = async (taskId: number) =>
      (
        await api(e, `/workflow/${id}/download/${taskId}?workspaceId=42&fileName=.command.err`)
      ).text();
    expect(await stderr(3)).toBe("Killed\nout of memory\n");
    expect(await stderr(4)).toBe("bad index\n");
    const { workflow } = await expectAnswer(
      e,
      "GET /workflow/{workflowId}",
      `/workflow/${id}?workspaceId=42`,
    );
    expect(workflow).toMatchObject({
      errorMessage: "Process `STAR_ALIGN` terminated with an error exit status (137)",
      exitStatus: 1,
      stats: { failedCount: 2, succeedCount: 2 },
    });
  });

  test("failures and a single task's fields together are refused, saying what to do", async () => {
    await expect(
      startEmulator({
        seed: { runs: [{ ending: { ...ending, task: "MULTIQC", exitStatus: 2 } }] },
      }),
    ).rejects.toThrow(
      'An ending\'s failures list each failing task (move task, exitStatus into one of them), e.g. { "status": "FAILED", "failures": [{ "task": "STAR_ALIGN", "exitStatus": 137 }] }.',
    );
    // A pipeline's, at seeding rather than at its first launch.
    await expect(
      startEmulator({
        seed: { pipelines: [{ name: "p", ending: { status: "FAILED", failures: [] } }] },
      }),
    ).rejects.toThrow("An ending's failures list each failing task (give at least one)");
  });
});

describe("cost and resource use", () => {
  const GiB = 1024 ** 3;
  const HOUR = 3_600_000;

  test("a seed's cost and progress figures are answered by describe and GET /workflow/{id}/progress", async () => {
    const e = await start({
      seed: {
        runs: [
          {
            id: "costly",
            workspaceId: 42,
            status: "SUCCEEDED",
            cost: 12.5,
            progress: { cpuTime: 7_200_000, memoryRss: 3 * GiB, cpuEfficiency: 80 },
          },
        ],
      },
    });
    const described = await expectAnswer(
      e,
      "GET /workflow/{workflowId}",
      "/workflow/costly?workspaceId=42",
    );
    const { progress } = await expectAnswer(
      e,
      "GET /workflow/{workflowId}/progress",
      "/workflow/costly/progress?workspaceId=42",
    );
    expect([described.cost, described.costIsEstimate]).toEqual([12.5, false]);
    for (const answer of [described.progress, progress]) {
      expect(answer.workflowProgress).toMatchObject({
        cost: 12.5,
        cpuTime: 7_200_000,
        memoryRss: 3 * GiB,
        cpuEfficiency: 80,
        succeeded: 2,
      });
    }
  });

  test('a run seeded with "cost": null answers no cost, as the service does for some runs', async () => {
    const e = await start({
      seed: { runs: [{ id: "free", workspaceId: 42, status: "SUCCEEDED", cost: null }] },
    });
    const described = await expectAnswer(
      e,
      "GET /workflow/{workflowId}",
      "/workflow/free?workspaceId=42",
    );
    expect([described.cost, described.progress.workflowProgress.cost]).toEqual([null, null]);
  });

  test("figures not seeded follow from the tasks' CPUs, memory and times", async () => {
    const e = await start({
      seed: {
        runs: [
          {
            id: "derived",
            workspaceId: 42,
            status: "FAILED",
            submit: "-3h",
            tasks: [
              { process: "FASTQC", status: "COMPLETED", start: "-3h", complete: "-2h" },
              {
                process: "STAR_ALIGN",
                status: "FAILED",
                exitStatus: 137,
                start: "-2h",
                complete: "-1h",
                cpus: 8,
                memory: 32 * GiB,
              },
            ],
          },
        ],
      },
    });
    const { progress, cost, costIsEstimate } = await expectAnswer(
      e,
      "GET /workflow/{workflowId}",
      "/workflow/derived?workspaceId=42",
    );
    // 2 CPUs for an hour and 8 for an hour: 10 CPU hours, used at 65%, at 0.04 USD each.
    expect(cost).toBeCloseTo(0.4, 6);
    expect(costIsEstimate).toBe(true);
    expect(progress.workflowProgress).toMatchObject({
      cpus: 10,
      cpuTime: 6.5 * HOUR,
      memoryReq: 36 * GiB,
      memoryRss: 18 * GiB,
      peakCpus: 8,
      peakMemory: 32 * GiB,
      cpuEfficiency: 65,
      memoryEfficiency: 50,
      succeeded: 1,
      failed: 1,
    });
    expect(
      progress.processesProgress.map((p: any) => [p.process, p.cpus, p.cpuTime, p.failed]),
    ).toEqual([
      ["FASTQC", 2, 1.3 * HOUR, 0],
      ["STAR_ALIGN", 8, 5.2 * HOUR, 1],
    ]);
    const { tasks } = await expectAnswer(
      e,
      "GET /workflow/{workflowId}/tasks",
      "/workflow/derived/tasks?workspaceId=42",
    );
    expect(
      tasks.map(({ task }: any) => [
        task.process,
        task.cpus,
        task.memory,
        task.realtime,
        task.cost,
      ]),
    ).toEqual([
      ["FASTQC", 2, 4 * GiB, HOUR, 0.08],
      ["STAR_ALIGN", 8, 32 * GiB, HOUR, 0.32],
    ]);
  });

  test("a launched run's figures grow while its task runs; none before it starts", async () => {
    const e = await start();
    const id = await launch(e, { computeEnvId: "ce1" });
    const load = async () =>
      (
        await expectAnswer(
          e,
          "GET /workflow/{workflowId}/progress",
          `/workflow/${id}/progress?workspaceId=42`,
        )
      ).progress.workflowProgress;
    expect(await load()).toMatchObject({ cpus: 0, cpuTime: 0, cost: 0, pending: 2 });
    e.state.runs.advance(id);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const running = await load();
    expect(running).toMatchObject({ cpus: 2, loadTasks: 1, loadCpus: 2, running: 1 });
    expect(running.cpuTime).toBeGreaterThanOrEqual(2 * 1_000 * 0.65);
    expect(running.cost).toBeGreaterThan(0);
  });
});
