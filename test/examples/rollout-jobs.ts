import {
  createSeqeraClient,
  find,
  launchPipeline,
  listWorkspaces,
  pipelineVersions,
  runSummaries,
} from "seqera-api-client";

/** A new version of `pipeline` at `revision`: published, test-launched, then made the default. */
export async function rollOut(
  workspace: string,
  pipeline: string,
  revision: string,
  pollMs = 30_000,
) {
  const client = createSeqeraClient().withWorkspace(workspace);
  await pipelineVersions.create(client, pipeline, { revision, name: revision });
  // Waits for the run; one that does not succeed throws RunFailedError, and the default stays.
  await launchPipeline(client, pipeline, {
    versionName: revision,
    wait: { pollIntervalMs: pollMs },
  });
  await pipelineVersions.makeDefault(client, pipeline, { versionName: revision });
  return pipelineVersions.list(client, pipeline, { published: true });
}

/** Deletes the label and the secret of these names from every workspace of `org`. */
export async function cleanUp(org: string, label: string, secret: string) {
  const client = createSeqeraClient();
  const removed: string[] = [];
  for (const { orgName, workspaceId, workspaceName } of await listWorkspaces(client)) {
    if (orgName !== org) continue;
    const ws = client.withWorkspace(workspaceId);
    const found = await find.label(ws, label, { optional: true });
    if (found) await ws.DELETE("/labels/{labelId}", { params: { path: { labelId: found.id } } });
    const kept = await find.secret(ws, secret, { optional: true });
    if (kept) {
      await ws.DELETE("/pipeline-secrets/{secretId}", { params: { path: { secretId: kept.id } } });
    }
    if (found || kept) removed.push(workspaceName);
  }
  return removed;
}

/** The runs that completed in the last `days` days: status, duration, cost, CPU hours; the total. */
export async function costReport(workspace: string, days = 7) {
  const client = createSeqeraClient().withWorkspace(workspace);
  const after = new Date(Date.now() - days * 86_400_000);
  let total = 0;
  for await (const run of runSummaries(client, { after })) {
    console.log([run.runName, run.status, run.durationMs, run.cost, run.cpuHours].join("\t"));
    total += run.cost ?? 0;
  }
  return total;
}
