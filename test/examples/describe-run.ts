import { createSeqeraClient } from "seqera-api-client";

export async function describeRun(workflowId: string) {
  const client = createSeqeraClient(); // TOWER_ACCESS_TOKEN, TOWER_API_ENDPOINT, TOWER_WORKSPACE_ID
  const { workflow } = await client.GET("/workflow/{workflowId}", {
    params: { path: { workflowId } },
  });
  // client.raw.* resolve to { data, response }, for the status and headers too.
  const { data, response } = await client.raw.GET("/service-info");
  return {
    status: workflow?.status,
    apiVersion: data.serviceInfo?.apiVersion,
    via: response.url,
  };
}
