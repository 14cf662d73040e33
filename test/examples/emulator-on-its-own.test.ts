import { createSeqeraClient, launchPipeline, watchRuns } from "seqera-api-client";
import { startEmulator } from "seqera-api-client/testing";
import { expect, test } from "vitest";

test("runs of one pipeline end on their own, one in three failing, as a watch follows the list", async () => {
  const emulator = await startEmulator({
    // Each runs-list poll moves the runs it answered one step: a watch sees them end.
    runSteps: { onList: true },
    seed: {
      workspaces: [{ org: "acme", name: "genomics", id: 42 }],
      computeEnvs: [{ name: "aws", workspaceId: 42 }],
      pipelines: [
        {
          name: "rnaseq",
          workspaceId: 42,
          // Taken in turn by its launches.
          ending: [
            { status: "SUCCEEDED" },
            { status: "SUCCEEDED" },
            { status: "FAILED", task: "MULTIQC", exitStatus: 137 },
          ],
        },
      ],
    },
  });
  const client = createSeqeraClient({
    baseUrl: emulator.url,
    token: emulator.token,
    workspaceId: 42,
  });
  try {
    for (let i = 0; i < 3; i++) await launchPipeline(client, "rnaseq");

    const ended = new Map<string, string>();
    for await (const { run } of watchRuns(client, {
      untilEnded: true,
      pollIntervalMs: 10,
      maxPollIntervalMs: 10,
    })) {
      if (run.status === "SUCCEEDED" || run.status === "FAILED") ended.set(run.id!, run.status);
    }
    expect([...ended.values()].sort()).toEqual(["FAILED", "SUCCEEDED", "SUCCEEDED"]);
  } finally {
    await client.close();
    await emulator.close();
  }
});

test("a handler amends one field of the emulator's own answer", async () => {
  const emulator = await startEmulator({
    seed: { runs: [{ id: "r1", status: "SUCCEEDED", cost: null }] },
  });
  // The run's describe, with one field changed: the rest is the emulator's.
  emulator.setHandler("DescribeWorkflow", async (_request, answer) => {
    const own = await answer();
    const body = own.body as { workflow: { runName: string } };
    body.workflow.runName = "renamed-by-the-handler";
    return own;
  });
  const client = createSeqeraClient({ baseUrl: emulator.url, token: emulator.token });
  try {
    const { workflow, cost } = await client.GET("/workflow/{workflowId}", {
      params: { path: { workflowId: "r1" } },
    });
    expect([workflow?.runName, workflow?.status, cost]).toEqual([
      "renamed-by-the-handler",
      "SUCCEEDED",
      null, // seeded "cost": null, a run the service has no cost for
    ]);
  } finally {
    await client.close();
    await emulator.close();
  }
});
