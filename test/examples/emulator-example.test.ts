import { createSeqeraClient, ForbiddenError } from "seqera-api-client";
import { startEmulator, type Emulator } from "seqera-api-client/testing";
import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";

// The automation under test; in your repository it lives in your own source and is imported.
async function runPipeline(opts: {
  baseUrl: string;
  token: string;
  workspaceId: number;
  pipeline: string;
}) {
  const client = createSeqeraClient(opts);
  const { workflowId } = await client.POST("/workflow/launch", {
    body: { launch: { pipeline: opts.pipeline, computeEnvId: "ce-1" } },
  });
  for (;;) {
    const { workflow } = await client.GET("/workflow/{workflowId}", {
      params: { path: { workflowId: workflowId! } },
    });
    if (workflow?.status !== "SUBMITTED" && workflow?.status !== "RUNNING") return workflow?.status;
  }
}

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator.close());
beforeEach(() => {
  emulator.clearHandlers();
  emulator.faults.clear();
});

const options = () => ({
  baseUrl: emulator.url,
  token: emulator.token,
  workspaceId: 42,
  pipeline: "nf-core/rnaseq",
});

test("launches the pipeline and waits until the run ends", async () => {
  // Let the run succeed on the second poll; returning undefined keeps the emulator's answer.
  let polls = 0;
  emulator.setHandler("DescribeWorkflow", (request) => {
    if (++polls === 2)
      emulator.state.workflows.setStatus(String(request.params.workflowId), "SUCCEEDED");
    return undefined;
  });

  await expect(runPipeline(options())).resolves.toBe("SUCCEEDED");

  const [launch] = emulator.requests.filter((r) => r.operationId === "CreateWorkflowLaunch");
  expect(launch).toMatchObject({ status: 200, search: "workspaceId=42" });
  expect(launch!.body).toMatchObject({
    launch: { pipeline: "nf-core/rnaseq" },
  });
});

test("rides out a brief outage without launching twice", async () => {
  const before = emulator.requests.length;
  // Right after the launch the service answers one 503; the client retries the GET.
  emulator.setHandler("CreateWorkflowLaunch", () => {
    emulator.faults.queue("unavailable");
    return undefined;
  });
  emulator.setHandler("DescribeWorkflow", () => ({
    status: 200,
    body: { workflow: { status: "FAILED" } },
  }));

  await expect(runPipeline(options())).resolves.toBe("FAILED");
  expect(emulator.requests.slice(before).map((r) => [r.operationId, r.status])).toEqual([
    ["CreateWorkflowLaunch", 200],
    [undefined, 503],
    ["DescribeWorkflow", 200],
  ]);
});

test("reports a rejected token", async () => {
  await expect(runPipeline({ ...options(), token: "not-a-token" })).rejects.toBeInstanceOf(
    ForbiddenError,
  );
});
