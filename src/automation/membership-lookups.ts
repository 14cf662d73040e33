/**
 * Organization members by "organization/user" and workspace participants by user or team name
 * (in the client's workspace): the lookups the declarative plan finds them by. A user is named
 * by user name or e-mail, as the membership helpers (members.ts) take them.
 */
import type { SeqeraClient } from "../client/client.js";
import { collect, type Lookup } from "../client/lookup.js";
import { resolveWorkspace } from "../client/workspaces.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { FAMILIES } from "../model/families.js";
import type { FamilyName } from "../model/families.js";
import { MAX_PAGE_SIZE } from "../openapi/operation-info.js";
import { organizationOf } from "./names.js";

type Listed = { userName?: string | null; email?: string | null };
export type FoundMember = Listed & { memberId: string; orgName: string };
export type FoundParticipant = Listed & {
  participantId: string;
  teamName?: string | null;
  type?: string | null;
};

/** What changes a kind's members: a list kept before it is fetched again. */
const changedBy = (kind: FamilyName) => {
  const { create, update, delete: remove } = FAMILIES[kind].operations as Record<string, string>;
  return [create, update, remove].filter((o): o is string => o !== undefined);
};

export const MEMBERS: Lookup<FoundMember> = {
  kind: "member",
  global: true,
  searched: true,
  list: (client, signal, ref) => membersOf(client, ref, true, signal),
  suggest: (client, signal, ref) => membersOf(client, ref, false, signal),
  names: (m) => [m.userName, m.email].flatMap((n) => (n ? [`${m.orgName}/${n}`] : [])),
  id: (m) => m.memberId,
  changedBy: changedBy("members"),
};

async function membersOf(
  client: SeqeraClient,
  ref: string,
  search: boolean,
  signal: AbortSignal | undefined,
): Promise<FoundMember[]> {
  const { orgId, orgName, name } = await organizationOf(
    client,
    ref,
    "user",
    "ana@acme.org",
    signal,
  );
  const members = await collect(
    client.paginate("/orgs/{orgId}/members", {
      params: { path: { orgId: Number(orgId) }, query: search ? { search: name } : {} },
      ...(!search && { limit: MAX_PAGE_SIZE }),
      signal,
    }),
  );
  return members.flatMap((m) =>
    m.memberId == null ? [] : [{ ...m, memberId: String(m.memberId), orgName }],
  );
}

/** A participant is named by its user's name or e-mail, or by its team's name. */
export const PARTICIPANTS: Lookup<FoundParticipant> = {
  kind: "participant",
  list: async (client, signal) => {
    const path = await workspacePath(client, signal);
    const listed = await collect(
      client.paginate("/orgs/{orgId}/workspaces/{workspaceId}/participants", {
        params: { path: { orgId: Number(path.orgId), workspaceId: Number(path.workspaceId) } },
        signal,
      }),
    );
    return listed.flatMap((p) =>
      p.participantId == null ? [] : [{ ...p, participantId: String(p.participantId) }],
    );
  },
  names: (p) =>
    (p.type === "TEAM" ? [p.teamName] : [p.userName, p.email]).flatMap((n) => (n ? [n] : [])),
  id: (p) => p.participantId,
  changedBy: changedBy("participants"),
};

/** The client's workspace and its organization, as the participants' paths take them. */
export async function workspacePath(
  client: SeqeraClient,
  signal: AbortSignal | undefined,
): Promise<{ orgId: string; workspaceId: string; orgName: string }> {
  const id = await client.resolveWorkspaceId({ signal });
  if (id === undefined) throw new ConfigurationError("participants: name their workspace");
  const { orgId, orgName, workspaceId } = await resolveWorkspace(client, id, { signal });
  return { orgId, workspaceId, orgName };
}

/** The lookups of the membership kinds, by family (names.ts's FAMILY_LOOKUPS has the others). */
export const MEMBERSHIP_LOOKUPS: Partial<Record<FamilyName, Lookup<object>>> = {
  members: MEMBERS,
  participants: PARTICIPANTS,
};
