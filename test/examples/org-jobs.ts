import {
  RunFailedError,
  cancelRun,
  createSeqeraClient,
  failedTasks,
  find,
  launchPipeline,
  listRuns,
  listWorkspaces,
  updateCredentials,
  uploadDataset,
  watchRuns,
} from "seqera-api-client";

/** Cancels the runs of every workspace of `org` running for over `hours`, then watches the rest end. */
export async function cleanUpStaleRuns(org: string, hours: number, pollIntervalMs = 30_000) {
  const client = createSeqeraClient();
  for (const { workspaceId, workspaceName } of await listWorkspaces(client, {
    organization: org,
  })) {
    const inWorkspace = client.withWorkspace(workspaceId);
    for await (const run of listRuns(inWorkspace, { status: "RUNNING" })) {
      if ((run.elapsedMs ?? 0) < hours * 3600_000) continue;
      await cancelRun(inWorkspace, run.id);
      console.log(`cancelled ${workspaceName}/${run.runName}`);
    }
  }
  const watch = watchRuns(client, { organization: org, untilEnded: true, pollIntervalMs });
  for await (const { run, previousStatus } of watch)
    if (previousStatus) console.log(`${run.runName}: ${previousStatus} -> ${run.status}`);
}

/** New keys for the credentials `name` in every workspace of `org` that has them. */
export async function rotateCredentials(org: string, name: string, key: string, secret: string) {
  const client = createSeqeraClient();
  const keys = { accessKey: key, secretKey: secret };
  for (const { workspaceId, workspaceName } of await listWorkspaces(client, {
    organization: org,
  })) {
    const inWorkspace = client.withWorkspace(workspaceId);
    const rotated = await updateCredentials(inWorkspace, name, keys, { optional: true });
    for (const env of rotated?.computeEnvs ?? []) console.log(workspaceName, env.name, env.status);
  }
}

/** Uploads a samplesheet as the dataset's new version, runs `pipeline` on it, reports failures. */
export async function runOnSamplesheet(workspace: string, pipeline: string, file: string) {
  const client = createSeqeraClient().withWorkspace(workspace);
  const { url } = await uploadDataset(client, { name: "samples", file, hasHeader: true });
  try {
    await launchPipeline(client, pipeline, {
      params: { input: url },
      wait: { pollIntervalMs: 10 },
    });
  } catch (error) {
    if (!(error instanceof RunFailedError)) throw error;
    for (const task of await failedTasks(client, error.workflowId, { stderrLines: 3 }))
      console.log(`${task.name} exit ${task.exitStatus}: ${task.stderr!.join(" | ")}`);
    return false;
  }
  return true;
}

/** The participants of a workspace given by name ("org/workspace"), with their roles. */
export async function participantsOf(workspace: string) {
  const client = createSeqeraClient();
  const { orgId, workspaceId } = await find.workspace(client, workspace);
  const path = { orgId: Number(orgId), workspaceId: Number(workspaceId) };
  const participants = "/orgs/{orgId}/workspaces/{workspaceId}/participants";
  for await (const p of client.paginate(participants, { params: { path } }))
    console.log(p.userName ?? p.teamName, p.wspRole);
}
