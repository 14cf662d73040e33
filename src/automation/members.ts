/**
 * Membership set idempotently, so that a job run twice changes nothing the second time: users
 * added to an organization or a team unless they are in it, and a team's or a user's role in a
 * workspace set, adding them as a participant when absent. Users are named by user name or
 * e-mail, compared in any case, as the service compares them.
 */
import type { SeqeraClient } from "../client/client.js";
import { lookup } from "../client/lookup.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { ConflictError } from "../errors/conflict-error.js";
import { UnexpectedAnswerError } from "../errors/unexpected-answer-error.js";
import { find, TEAMS } from "./names.js";
import type { WorkspaceRole } from "../schema/types.js";

/** Whether a member or participant is `user` (a user name or an e-mail, in any case). */
export const isUser = (
  entry: { userName?: string | null; email?: string | null },
  user: string,
): boolean => [entry.userName, entry.email].some((n) => n?.toLowerCase() === user.toLowerCase());

/**
 * Adds the users (user names or e-mails) to the organization `"acme"` or to the team
 * `"acme/bioinfo"`, each unless it is a member already; resolves with those it added. A team's
 * members must be members of its organization (the service answers 400 for another user).
 */
export async function addMembers(
  client: SeqeraClient,
  to: string,
  users: string | readonly string[],
  options: { signal?: AbortSignal } = {},
): Promise<string[]> {
  const { signal } = options;
  const team = to.includes("/") ? await lookup(client, TEAMS, to, signal) : undefined;
  const orgId = team?.orgId ?? (await find.organization(client, to, { signal })).orgId;
  const teamPath = team && { orgId, teamId: team.teamId };
  const listed = teamPath
    ? client.paginate("/orgs/{orgId}/teams/{teamId}/members", {
        params: { path: teamPath },
        signal,
      })
    : client.paginate("/orgs/{orgId}/members", { params: { path: { orgId } }, signal });
  const members: { userName?: string | null; email?: string | null }[] = [];
  for await (const member of listed) members.push(member);
  const added: string[] = [];
  for (const user of typeof users === "string" ? [users] : users) {
    if (members.some((member) => isUser(member, user))) continue;
    // Adding a member twice answers 409, which means it is in: so a retry is harmless.
    const request = teamPath
      ? client.POST("/orgs/{orgId}/teams/{teamId}/members", {
          params: { path: teamPath },
          body: { userNameOrEmail: user },
          retryUnsafe: true,
          signal,
        })
      : client.PUT("/orgs/{orgId}/members/add", {
          params: { path: { orgId } },
          body: { user },
          retryUnsafe: true,
          signal,
        });
    const answer = await request.catch((error: unknown) => {
      if (error instanceof ConflictError) return undefined;
      throw error;
    });
    // The member as the service knows it, so that its other name is known to be in too.
    members.push(answer?.member ?? (user.includes("@") ? { email: user } : { userName: user }));
    if (answer) added.push(user);
  }
  return added;
}

/**
 * Gives the team (`{ team: "bioinfo" }`, of the workspace's organization) or the user
 * (`{ user: "ana@acme.org" }`, a member of it) `role` in the client's workspace: adds them as a
 * participant when absent and sets the role when it differs. Resolves with what it did.
 */
export async function setWorkspaceRole(
  client: SeqeraClient,
  who: { team: string } | { user: string },
  role: WorkspaceRole,
  options: { signal?: AbortSignal } = {},
): Promise<"added" | "changed" | "unchanged"> {
  const { signal } = options;
  const workspaceId = await client.resolveWorkspaceId({ signal });
  if (workspaceId === undefined) {
    throw new ConfigurationError(
      'setWorkspaceRole sets a role in the client\'s workspace, and it has none: pass client.withWorkspace("org/workspace")',
    );
  }
  const { orgId, orgName } = await find.workspace(client, workspaceId, { signal });
  const path = { orgId, workspaceId };
  // Whom the participant is: also the body that adds it.
  const target =
    "team" in who
      ? { teamId: Number((await lookup(client, TEAMS, `${orgName}/${who.team}`, signal)).teamId) }
      : { userNameOrEmail: who.user };
  const participantOf = async () => {
    const participants = client.paginate("/orgs/{orgId}/workspaces/{workspaceId}/participants", {
      params: { path },
      signal,
    });
    for await (const p of participants) {
      const same =
        "teamId" in target
          ? p.teamId === target.teamId
          : p.type !== "TEAM" && isUser(p, target.userNameOrEmail);
      if (same) return p;
    }
    return undefined;
  };
  let participant = await participantOf();
  let done: "added" | "changed" = "changed";
  if (!participant) {
    const add = "PUT /orgs/{orgId}/workspaces/{workspaceId}/participants/add";
    const answer = await client
      .PUT("/orgs/{orgId}/workspaces/{workspaceId}/participants/add", {
        params: { path },
        body: target,
        signal,
      })
      .catch(async (error: unknown) => {
        // Added since it was listed: its role is set below all the same.
        if (error instanceof ConflictError) return { participant: await participantOf() };
        throw error;
      });
    participant = answer.participant ?? undefined;
    if (participant?.participantId == null) {
      throw new UnexpectedAnswerError(
        add,
        "participant.participantId",
        "the new participant's id",
        answer,
      );
    }
    done = "added";
  }
  if (participant.wspRole === role) return done === "added" ? done : "unchanged";
  await client.PUT("/orgs/{orgId}/workspaces/{workspaceId}/participants/{participantId}/role", {
    params: { path: { ...path, participantId: participant.participantId! } },
    body: { role },
    signal,
  });
  return done;
}
