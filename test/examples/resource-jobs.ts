import { ConflictError, createSeqeraClient, type SeqeraClient } from "seqera-api-client";

/** Every data link of the workspace: its status, and the objects and bytes under `prefix`. */
export async function dataLinkInventory(workspace: string, prefix: string) {
  const client = createSeqeraClient().withWorkspace(workspace);
  const inventory = [];
  for await (const link of client.paginate("/data-links")) {
    const { items } = await client.GET("/data-links/{dataLinkId}/browse-tree", {
      params: { path: { dataLinkId: link.id! }, query: { paths: [prefix] } },
    });
    const bytes = items.reduce((sum, item) => sum + item.size, 0);
    inventory.push({ name: link.name, status: link.status, objects: items.length, bytes });
  }
  return inventory;
}

/** Stops the studios of every workspace of `org` running for more than `hours`. */
export async function stopStaleStudios(org: string, hours: number) {
  const client = createSeqeraClient();
  const { organizations } = await client.GET("/orgs");
  const { orgId } = organizations!.find((o) => o.name === org)!;
  const { workspaces } = await client.GET("/orgs/{orgId}/workspaces", {
    params: { path: { orgId: orgId! } },
  });
  const before = Date.now() - hours * 3600_000;
  const stopped: string[] = [];
  for (const { id } of workspaces ?? []) {
    const inWorkspace = client.withWorkspace(id!);
    for await (const studio of inWorkspace.paginate("/studios")) {
      if (studio.statusInfo?.status !== "running") continue;
      if (Date.parse(studio.lastStarted ?? "") > before) continue;
      await inWorkspace.PUT("/studios/{sessionId}/stop", {
        params: { path: { sessionId: studio.sessionId! } },
      });
      stopped.push(studio.name!);
    }
  }
  return stopped;
}

/** Creates the team if needed, adds the users (by e-mail), and gives it a role in workspaces. */
export async function onboardTeam(
  org: string,
  team: string,
  emails: string[],
  roles: Record<string, "owner" | "admin" | "maintain" | "launch" | "connect" | "view">,
) {
  const client = createSeqeraClient();
  const { organizations } = await client.GET("/orgs");
  const orgId = organizations!.find((o) => o.name === org)!.orgId!;
  const teamId = await teamNamed(client, orgId, team);
  for (const email of emails) {
    await client
      .POST("/orgs/{orgId}/teams/{teamId}/members", {
        params: { path: { orgId, teamId } },
        body: { userNameOrEmail: email },
      })
      .catch((error: unknown) => {
        if (!(error instanceof ConflictError)) throw error; // a 409: already in the team
      });
  }
  const { workspaces } = await client.GET("/orgs/{orgId}/workspaces", {
    params: { path: { orgId } },
  });
  for (const [name, role] of Object.entries(roles)) {
    const workspaceId = workspaces!.find((w) => w.name === name)!.id!;
    const path = { orgId, workspaceId };
    const { participants } = await client.GET(
      "/orgs/{orgId}/workspaces/{workspaceId}/participants",
      {
        params: { path },
      },
    );
    const participant =
      participants?.find((p) => p.teamId === teamId) ??
      (
        await client.PUT("/orgs/{orgId}/workspaces/{workspaceId}/participants/add", {
          params: { path },
          body: { teamId },
        })
      ).participant!;
    await client.PUT("/orgs/{orgId}/workspaces/{workspaceId}/participants/{participantId}/role", {
      params: { path: { ...path, participantId: participant.participantId! } },
      body: { role },
    });
  }
}

async function teamNamed(client: SeqeraClient, orgId: number, name: string): Promise<number> {
  const { teams } = await client.GET("/orgs/{orgId}/teams", {
    params: { path: { orgId }, query: { search: name } },
  });
  const found = teams?.find((t) => t.name === name);
  if (found) return found.teamId!;
  const { team } = await client.POST("/orgs/{orgId}/teams", {
    params: { path: { orgId } },
    body: { team: { name } },
  });
  return team!.teamId!;
}
