import {
  copyPipeline,
  createSeqeraClient,
  failedTasks,
  find,
  listRuns,
  relaunchRun,
} from "seqera-api-client";

/** Last night's failed runs: why each failed, then resumed (relaunched afresh if it cannot be). */
export async function resumeLastNight(workspace: string) {
  const client = createSeqeraClient({ workspaceId: workspace });
  const since = new Date(Date.now() - 24 * 3600_000); // to the instant, not the UTC day
  const resumed: Record<string, string> = {};
  for await (const run of listRuns(client, { status: "FAILED", after: since })) {
    const id = String(run.id);
    for (const task of await failedTasks(client, id)) console.log(run.runName, task.errorMessage);
    resumed[id] = (await relaunchRun(client, id, { resume: "if-available" })).workflowId;
  }
  return resumed;
}

/** Copies the pipelines of `from` missing in `to` ("org/workspace" both), compute envs by name. */
export async function copyPipelines(from: string, to: string) {
  const client = createSeqeraClient().withWorkspace(from);
  const target = await find.workspace(client, to); // its organization too, for the message
  const copied: string[] = [];
  for await (const { name } of client.paginate("/pipelines")) {
    if (!name || (await find.pipeline(client.withWorkspace(to), name, { optional: true })))
      continue;
    const { computeEnvBy } = await copyPipeline(client, name, { to });
    console.log(`${name} → ${target.orgName} (${target.orgId}), compute env by ${computeEnvBy}`);
    copied.push(name);
  }
  return copied;
}
