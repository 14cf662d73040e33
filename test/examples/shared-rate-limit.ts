import { createSeqeraClient } from "seqera-api-client";

/**
 * One worker of several (processes or machines) on the same token: the limiter's state lives
 * in Redis, so together they stay within the token's 20 calls/s and 72,000 calls/h.
 */
export async function worker(workflowIds: string[], redisUrl = "redis://127.0.0.1:6379") {
  const client = createSeqeraClient({ rateLimit: { redis: redisUrl } });
  try {
    const statuses: string[] = [];
    for (const workflowId of workflowIds) {
      const { workflow } = await client.GET("/workflow/{workflowId}", {
        params: { path: { workflowId } },
      });
      statuses.push(workflow?.status ?? "UNKNOWN");
    }
    return statuses;
  } finally {
    // Closes the Redis connections, so the process can exit.
    await client.close();
  }
}
