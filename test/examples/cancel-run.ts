import { createSeqeraClient } from "seqera-api-client";

/** Cancels a run that is still submitted or running; returns whether it asked to cancel. */
export async function cancelRun(workflowId: string): Promise<boolean> {
  const client = createSeqeraClient();
  const { workflow } = await client.GET("/workflow/{workflowId}", {
    params: { path: { workflowId } },
  });
  if (workflow?.status !== "SUBMITTED" && workflow?.status !== "RUNNING") return false;
  // POST is never retried unless the call opts in: cancelling twice is harmless, so it does.
  await client.POST("/workflow/{workflowId}/cancel", {
    params: { path: { workflowId } },
    body: {},
    retryUnsafe: true,
  });
  return true;
}
