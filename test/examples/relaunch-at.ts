import { createSeqeraClient } from "seqera-api-client";

/** Launches a run's pipeline again, as it was launched, at another revision; the new run's id. */
export async function relaunchAt(workflowId: string, revision: string): Promise<string> {
  const client = createSeqeraClient();
  const { launch } = await client.GET("/workflow/{workflowId}/launch", {
    params: { path: { workflowId } },
  });
  // An answer's fields (`string | null | undefined`) go into a request as they are: the
  // service reads a null as the field left out.
  const { pipeline, workDir, configProfiles, paramsText } = launch ?? {};
  const computeEnvId = launch?.computeEnv?.id;
  const { workflowId: relaunched } = await client.POST("/workflow/launch", {
    body: { launch: { pipeline, computeEnvId, workDir, configProfiles, paramsText, revision } },
  });
  // A string: the client checked that the answer has it.
  return relaunched;
}
