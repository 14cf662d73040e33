import { createSeqeraClient, find, listRuns } from "seqera-api-client";

/** The failed runs of each workspace, by name, through one client and one rate limit. */
export async function failedRunsPerWorkspace(workspaces: string[]) {
  const client = createSeqeraClient(); // TOWER_ACCESS_TOKEN, TOWER_API_ENDPOINT
  const failed: Record<string, string[]> = {};
  for (const workspace of workspaces) {
    // The workspace is looked up once, then every call and helper of `inWorkspace` uses its id.
    const inWorkspace = client.withWorkspace(workspace);
    failed[workspace] = [];
    for await (const run of listRuns(inWorkspace, { status: "FAILED" })) {
      failed[workspace].push(run.id!);
    }
  }
  // Slower calls for one job: the other settings, and the connection, are shared.
  const patient = client.withOptions({ timeoutMs: 120_000 });
  const rnaseq = await find.pipeline(patient.withWorkspace(workspaces[0]!), "rnaseq", {
    optional: true,
  });
  return { failed, rnaseqId: rnaseq?.pipelineId, workspaceId: await patient.resolveWorkspaceId() };
}
