import { startEmulator, type Emulator } from "seqera-api-client/testing";
import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";

// The automation under test; in your repository it lives in your own source and is imported.
async function runPipeline(opts: {
  endpoint: string;
  token: string;
  workspaceId: number;
  pipeline: string;
}) {
  const call = async (method: string, path: string, body?: unknown) => {
    for (let attempt = 1; ; attempt++) {
      const response = await fetch(`${opts.endpoint}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${opts.token}`,
          "Content-Type": "application/json",
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (response.status === 503 && attempt < 3) continue;
      if (!response.ok)
        throw new Error(`${method} ${path}: HTTP ${response.status}`);
      return response.json();
    }
  };
  const ws = `workspaceId=${opts.workspaceId}`;
  const { workflowId } = await call("POST", `/workflow/launch?${ws}`, {
    launch: { pipeline: opts.pipeline, computeEnvId: "ce-1" },
  });
  for (;;) {
    const { workflow } = await call("GET", `/workflow/${workflowId}?${ws}`);
    if (!["SUBMITTED", "RUNNING"].includes(workflow.status))
      return workflow.status as string;
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
  endpoint: emulator.url,
  token: emulator.token,
  workspaceId: 42,
  pipeline: "nf-core/rnaseq",
});

test("launches the pipeline and waits until the run ends", async () => {
  // Let the run succeed on the second poll; returning undefined keeps the emulator's answer.
  let polls = 0;
  emulator.setHandler("DescribeWorkflow", (request) => {
    if (++polls === 2)
      emulator.state.workflows.setStatus(
        String(request.params.workflowId),
        "SUCCEEDED",
      );
    return undefined;
  });

  await expect(runPipeline(options())).resolves.toBe("SUCCEEDED");

  const [launch] = emulator.requests.filter(
    (r) => r.operationId === "CreateWorkflowLaunch",
  );
  expect(launch).toMatchObject({ status: 200, search: "workspaceId=42" });
  expect(launch!.body).toMatchObject({
    launch: { pipeline: "nf-core/rnaseq" },
  });
});

test("retries when the service is briefly unavailable", async () => {
  const before = emulator.requests.length;
  emulator.faults.queue("unavailable");
  emulator.setHandler("DescribeWorkflow", () => ({
    status: 200,
    body: { workflow: { status: "FAILED" } },
  }));

  await expect(runPipeline(options())).resolves.toBe("FAILED");
  expect(emulator.requests.slice(before).map((r) => r.status)).toEqual([
    503, 200, 200,
  ]);
});

test("reports a rejected token", async () => {
  await expect(
    runPipeline({ ...options(), token: "not-a-token" }),
  ).rejects.toThrow("HTTP 403");
});
