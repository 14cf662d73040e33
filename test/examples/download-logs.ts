import { writeFile } from "node:fs/promises";
import { createSeqeraClient } from "seqera-api-client";

/** Saves a run's Nextflow log file and returns the first lines of its console output. */
export async function downloadLogs(workflowId: string, file: string): Promise<string[]> {
  const client = createSeqeraClient();
  // text/plain downloads resolve to a string (parseAs: "stream" gives the body as a stream).
  const log = await client.GET("/workflow/{workflowId}/download", {
    params: {
      path: { workflowId },
      query: { fileName: `nf-${workflowId}.log` },
    },
  });
  await writeFile(file, log);
  const { log: page } = await client.GET("/workflow/{workflowId}/log", {
    params: { path: { workflowId }, query: { maxLength: 50 } },
  });
  return page?.entries ?? [];
}
