import { createSeqeraClient, find } from "seqera-api-client";

/** Stops the studios of every workspace of `org` running for more than `hours`. */
export async function stopStaleStudios(org: string, hours: number) {
  const client = createSeqeraClient();
  const { orgId } = await find.organization(client, org);
  const { workspaces } = await client.GET("/orgs/{orgId}/workspaces", {
    params: { path: { orgId } },
  });
  const before = Date.now() - hours * 3600_000;
  const stopped: string[] = [];
  for (const { id } of workspaces ?? []) {
    const inWorkspace = client.withWorkspace(id);
    for await (const studio of inWorkspace.paginate("/studios")) {
      if (studio.statusInfo?.status !== "running") continue;
      if (Date.parse(studio.lastStarted ?? "") > before) continue;
      const path = { sessionId: studio.sessionId };
      await inWorkspace.PUT("/studios/{sessionId}/stop", { params: { path } });
      stopped.push(studio.name!);
    }
  }
  return stopped;
}
