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
  // No computeEnvId: the service takes the workspace's primary compute environment.
  const { workflowId } = await client.POST("/workflow/launch", {
    body: { launch: { pipeline: opts.pipeline } },
  });
  for (;;) {
    const { workflow } = await client.GET("/workflow/{workflowId}", {
      params: { path: { workflowId } },
    });
    if (workflow?.status !== "SUBMITTED" && workflow?.status !== "RUNNING") return workflow?.status;
  }
}

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({
    seed: {
      workspaces: [{ org: "acme", name: "genomics", id: 42 }],
      computeEnvs: [{ name: "aws-batch", workspaceId: "acme/genomics", primary: true }],
    },
  });
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
  pipeline: "https://github.com/nf-core/rnaseq",
});

test("launches the pipeline and waits until the run ends", async () => {
  // Each poll moves the run one step; returning undefined keeps the emulator's answer.
  emulator.setHandler("DescribeWorkflow", (request) => {
    emulator.state.runs.advance(String(request.params.workflowId));
    return undefined;
  });

  await expect(runPipeline(options())).resolves.toBe("SUCCEEDED");

  const [run] = emulator.state.runs.list(42);
  expect(run!.tasks.map((t) => [t.name, t.status])).toEqual([
    ["FASTQC (sample_1)", "COMPLETED"],
    ["MULTIQC", "COMPLETED"],
  ]);
  expect(run!.log).toContain("Succeeded   : 2");
});

test("rides out a brief outage without launching twice", async () => {
  const before = emulator.requests.length;
  // Right after the launch the service answers one 503; the client retries the GET.
  emulator.setHandler("CreateWorkflowLaunch", () => {
    emulator.faults.queue("unavailable");
    return undefined;
  });
  emulator.setHandler("DescribeWorkflow", (request) => {
    emulator.state.runs.finish(String(request.params.workflowId), "FAILED");
    return undefined;
  });

  await expect(runPipeline(options())).resolves.toBe("FAILED");
  expect(emulator.requests.slice(before).map((r) => [r.operationId, r.status])).toEqual([
    ["CreateWorkflowLaunch", 200],
    [undefined, 503],
    ["DescribeWorkflow", 200],
  ]);
});

test("a workspace the token cannot see, or a rejected token, is a 403", async () => {
  for (const wrong of [{ workspaceId: 7 }, { token: "not-a-token" }]) {
    await expect(runPipeline({ ...options(), ...wrong })).rejects.toBeInstanceOf(ForbiddenError);
  }
});
