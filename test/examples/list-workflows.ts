import { createSeqeraClient } from "seqera-api-client";

/** Names of the failed runs among the most recent `limit` runs of the workspace. */
export async function failedRuns(limit: number): Promise<string[]> {
  const client = createSeqeraClient();
  const failed: string[] = [];
  // Pages of up to 100 (the server's cap) are fetched as the loop needs them, through the
  // rate limiter; leaving the loop early fetches nothing more.
  for await (const item of client.paginate("/workflow", { limit })) {
    if (item.workflow?.status === "FAILED") failed.push(item.workflow.runName ?? "?");
  }
  return failed;
}
