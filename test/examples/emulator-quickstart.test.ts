import { createSeqeraClient } from "seqera-api-client";
import { startEmulator } from "seqera-api-client/testing";
import { expect, test } from "vitest";

test("a run launched on the emulator ends when the test says so", async () => {
  const emulator = await startEmulator({
    seed: {
      workspaces: [{ org: "acme", name: "genomics", id: 42 }],
      computeEnvs: [{ name: "aws", workspaceId: 42, primary: true }],
    },
  });
  const client = createSeqeraClient({
    baseUrl: emulator.url,
    token: emulator.token,
    workspaceId: "acme/genomics",
  });
  try {
    const { workflowId } = await client.POST("/workflow/launch", {
      body: { launch: { pipeline: "https://github.com/nf-core/rnaseq" } },
    });
    emulator.state.runs.finish(workflowId, "SUCCEEDED");
    const { workflow } = await client.GET("/workflow/{workflowId}", {
      params: { path: { workflowId } },
    });
    expect(workflow?.status).toBe("SUCCEEDED");
    // The workspace name was looked up once, then sent as its id.
    expect(emulator.requests.map((r) => [r.operationId, r.search])).toEqual([
      ["UserInfo", ""],
      ["ListWorkspacesUser", ""],
      ["CreateWorkflowLaunch", "workspaceId=42"],
      ["DescribeWorkflow", "workspaceId=42"],
    ]);
  } finally {
    await client.close();
    await emulator.close();
  }
});
