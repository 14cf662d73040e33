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
  });
});
