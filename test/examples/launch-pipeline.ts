import { createSeqeraClient } from "seqera-api-client";

/** Launches a pipeline in the workspace of TOWER_WORKSPACE_ID and returns the new run's id. */
export async function launchPipeline(pipeline: string, computeEnvId: string): Promise<string> {
  // Token, endpoint and workspace come from TOWER_ACCESS_TOKEN, TOWER_API_ENDPOINT and
  // TOWER_WORKSPACE_ID, as for the tw CLI; each can also be passed as an option.
  const client = createSeqeraClient();
  const { workflowId } = await client.POST("/workflow/launch", {
    body: {
      launch: { pipeline, computeEnvId, workDir: "s3://my-bucket/work" },
    },
  });
  const { workflow } = await client.GET("/workflow/{workflowId}", {
    params: { path: { workflowId } },
  });
  console.log(`launched ${workflow?.runName ?? workflowId}: ${workflow?.status}`);
  return workflowId;
}
