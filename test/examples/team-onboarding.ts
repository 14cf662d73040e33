import { addMembers, createSeqeraClient, find, setWorkspaceRole } from "seqera-api-client";

type Role = "owner" | "admin" | "maintain" | "launch" | "connect" | "view";

/** Creates the team if needed, adds the users (by e-mail), and gives it a role in workspaces. */
export async function onboardTeam(
  org: string,
  team: string,
  emails: string[],
  roles: Record<string, Role>,
) {
  const client = createSeqeraClient();
  if (!(await find.team(client, `${org}/${team}`, { optional: true }))) {
    const { orgId } = await find.organization(client, org);
    await client.POST("/orgs/{orgId}/teams", {
      params: { path: { orgId } },
      body: { team: { name: team } },
    });
  }
  await addMembers(client, `${org}/${team}`, emails);
  for (const [workspace, role] of Object.entries(roles)) {
    await setWorkspaceRole(client.withWorkspace(`${org}/${workspace}`), { team }, role);
  }
}
