import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startEmulator, type Emulator } from "../../src/testing/index.js";
import { api } from "./http.js";
import { expectValid } from "./valid.js";

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({
    seed: {
      computeEnvs: [
        { id: "ce7", name: "ce", workspaceId: 7 },
        { id: "ce99", name: "ce", workspaceId: 99 },
        { id: "ce", name: "ce" },
      ],
    },
  });
});
afterAll(() => emulator.close());

async function launch(runName: string, workspaceId = 7): Promise<string> {
  const response = await api(emulator, `/workflow/launch?workspaceId=${workspaceId}`, {
    method: "POST",
    body: { launch: { pipeline: "nf-core/rnaseq", runName, computeEnvId: `ce${workspaceId}` } },
  });
  expect(response.status).toBe(200);
  const { workflowId } = (await response.json()) as { workflowId: string };
  return workflowId;
}

async function list(query: string): Promise<{
  workflows: { workflow: { id: string; runName: string } }[];
  totalSize: number;
  hasMore: boolean;
}> {
  const response = await api(emulator, `/workflow?${query}`);
  expect(response.status).toBe(200);
  const body = await response.json();
  expectValid("GET /workflow", body);
  return body;
}

describe("workflow runs are stateful", () => {
  test("launch, list paginated, describe, cancel, delete", async () => {
    const ids = [await launch("first"), await launch("second"), await launch("third")];
    expect(new Set(ids).size).toBe(3);

    const page1 = await list("workspaceId=7&max=2&offset=0");
    expect(page1.workflows.map((w) => w.workflow.runName)).toEqual(["third", "second"]);
    expect(page1).toMatchObject({ totalSize: 3, hasMore: true });
    const page2 = await list("workspaceId=7&max=2&offset=2");
    expect(page2.workflows.map((w) => w.workflow.id)).toEqual([ids[0]]);
    expect(page2.hasMore).toBe(false);

    const described = await api(emulator, `/workflow/${ids[0]}?workspaceId=7`);
    expect(described.status).toBe(200);
    const body = await described.json();
    expectValid("GET /workflow/{workflowId}", body);
    expect(body).toMatchObject({
      workspaceId: 7,
      workflow: {
        id: ids[0],
        runName: "first",
        status: "SUBMITTED",
        projectName: "nf-core/rnaseq",
      },
    });
    expect(body.workflow.dateCreated).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    const cancelled = await api(emulator, `/workflow/${ids[0]}/cancel?workspaceId=7`, {
      method: "POST",
    });
    expect(cancelled.status).toBe(204);
    expect(emulator.state.runs.get(ids[0]!)?.status).toBe("CANCELLED");

    const deleted = await api(emulator, `/workflow/${ids[0]}?workspaceId=7`, { method: "DELETE" });
    expect(deleted.status).toBe(204);
    const gone = await api(emulator, `/workflow/${ids[0]}?workspaceId=7`);
    expect(gone.status).toBe(403);
    expect(await gone.text()).toBe("");
    expect((await list("workspaceId=7")).totalSize).toBe(2);
  });

  test("an active run is deleted only with force", async () => {
    const id = await launch("active");
    const refused = await api(emulator, `/workflow/${id}?workspaceId=7`, { method: "DELETE" });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toContain("active");
    expect(
      (await api(emulator, `/workflow/${id}?workspaceId=7&force=true`, { method: "DELETE" }))
        .status,
    ).toBe(204);
  });

  test("runs belong to their workspace", async () => {
    const id = await launch("elsewhere", 99);
    expect((await api(emulator, `/workflow/${id}?workspaceId=7`)).status).toBe(403);
    expect((await api(emulator, `/workflow/${id}`)).status).toBe(403);
    expect((await list("workspaceId=99")).workflows.map((w) => w.workflow.id)).toEqual([id]);
  });

  test("tests drive a run's status, and describe reflects it", async () => {
    const run = emulator.state.runs.add({ runName: "seeded" });
    emulator.state.runs.setStatus(run.id, "SUCCEEDED");
    const body = await (await api(emulator, `/workflow/${run.id}`)).json();
    expectValid("GET /workflow/{workflowId}", body);
    expect(body.workflow).toMatchObject({ status: "SUCCEEDED", success: true });
    expect(body.workflow.complete).not.toBeNull();
    expect(body).not.toHaveProperty("workspaceId");
  });

  test("bulk delete reports the runs it could not delete", async () => {
    const done = emulator.state.runs.add({ status: "FAILED" });
    const running = emulator.state.runs.add({ status: "RUNNING" });
    const response = await api(emulator, "/workflow/delete", {
      method: "POST",
      body: { workflowIds: [done.id, running.id, "unknown"] },
    });
    expect(await response.json()).toEqual({ failedWorkflowIds: [running.id, "unknown"] });
    expect(emulator.state.runs.get(done.id)).toBeUndefined();
  });
});
