/**
 * The membership kinds in a plan: a member is added to its organization, a participant to its
 * workspace and given its role (an add, then the role: one step, by members.ts's helpers), and
 * a team's members made those of its `members` (as seqerakit's re-created team has them). Whom
 * they name must be in the organization, or in the files, before anything is applied: the
 * service would refuse it halfway.
 */
import { ENUMS } from "../../../generated/enums.js";
import type { SeqeraClient } from "../../client/client.js";
import { collect, lookup, lookupOptional, type Lookup } from "../../client/lookup.js";
import { ConfigurationError } from "../../errors/configuration-error.js";
import { NameNotFoundError } from "../../errors/name-not-found-error.js";
import type { WorkspaceRole } from "../../schema/types.js";
import { addMembers, isUser, setWorkspaceRole } from "../members.js";
import { MEMBERS, workspacePath } from "../membership-lookups.js";
import { TEAMS } from "../names.js";
import type { Entry } from "./documents.js";
import type { Desired } from "./desired.js";
import type { PlanChange, ScopeParams } from "./read.js";

/** What of a plan's step and its work (plan.ts's PlanStep and StepWork) is read here. */
interface PlanStep {
  action: string;
  name: string;
  changes: readonly PlanChange[];
}
interface StepWork {
  entry: Entry;
  desired: Desired;
  scope: ScopeParams;
  id?: string;
}

const TYPES = ["MEMBER", "TEAM"];
/** The release's workspace roles; one without that enum leaves them to the service. */
const ROLES: readonly string[] | undefined = ENUMS.WspRole;

/**
 * Checks a participant's type and role (seqerakit writes roles in capitals, the service answers
 * them in small letters) and that each user or team the entry names is in its organization or
 * in the files; ConfigurationError at the entry otherwise.
 */
export async function checkMembership(
  client: SeqeraClient,
  work: StepWork,
  entries: readonly Entry[],
  signal: AbortSignal | undefined,
): Promise<void> {
  const { entry, desired } = work;
  const refuse = (message: string): never => {
    throw new ConfigurationError(`${entry.at}: ${entry.kind} "${entry.name}": ${message}`);
  };
  let named: { kind: "members" | "teams"; name: string }[] = [];
  if (entry.kind === "participants") {
    const type = String(desired.fields.type ?? "MEMBER").toUpperCase();
    const role = String(desired.fields.wspRole ?? "").toLowerCase();
    if (!TYPES.includes(type)) refuse(`type is ${TYPES.join(" or ")}, not ${type}`);
    if (role === "") refuse("a participant needs its role");
    if (ROLES && !ROLES.includes(role)) {
      refuse(`role is one of ${ROLES.join(", ")}, not ${role}`);
    }
    Object.assign(desired.fields, { type, wspRole: role });
    named = [{ kind: type === "TEAM" ? "teams" : "members", name: entry.name }];
  } else named = (desired.members ?? []).map((name) => ({ kind: "members", name }));
  if (named.length === 0) return;
  const organization =
    entry.organization ??
    (entry.workspace?.includes("/")
      ? entry.workspace.split("/")[0]!
      : (await workspacePath(client, signal)).orgName);
  const newOrganization = entries.some(
    (e) => e.kind === "organizations" && e.name === organization,
  );
  for (const { kind, name } of named) {
    const inFiles = entries.some(
      (e) =>
        e.kind === kind &&
        e.organization === organization &&
        e.name.toLowerCase() === name.toLowerCase(),
    );
    const kept: Lookup<object> = kind === "teams" ? TEAMS : MEMBERS;
    if (inFiles) continue;
    const known = await lookupOptional(client, kept, `${organization}/${name}`, signal).catch(
      (error: unknown) => {
        // An organization the files create is not in the service yet: nobody is in it.
        const orgMissing = error instanceof NameNotFoundError && error.kind === "organization";
        if (orgMissing && newOrganization) return undefined;
        throw error;
      },
    );
    if (known) continue;
    const noun = kind === "teams" ? "team" : "user";
    refuse(`${noun} "${name}" is neither in the files nor in organization ${organization}`);
  }
}

/** The team's members, when they differ from those the files name (its current ones listed). */
export async function teamMemberChanges(
  client: SeqeraClient,
  work: StepWork,
  signal: AbortSignal | undefined,
): Promise<PlanChange[]> {
  const wanted = work.desired.members;
  if (!wanted) return [];
  const current =
    work.id === undefined ? [] : await teamMembers(client, work.scope.orgId!, work.id, signal);
  const { missing, extra } = differences(current, wanted);
  if (missing.length === 0 && extra.length === 0) return [];
  const names = current.map((member) => member.email ?? member.userName ?? "");
  return [{ field: "members", ...(names.length && { from: names }), to: wanted }];
}

type TeamMember = { memberId?: number | null; userName?: string | null; email?: string | null };

function teamMembers(
  client: SeqeraClient,
  orgId: string,
  teamId: string,
  signal: AbortSignal | undefined,
): Promise<TeamMember[]> {
  const path = { orgId: Number(orgId), teamId: Number(teamId) };
  return collect(
    client.paginate("/orgs/{orgId}/teams/{teamId}/members", { params: { path }, signal }),
  );
}

/** The users the team lacks, and its members the files do not name. */
function differences(current: readonly TeamMember[], wanted: readonly string[]) {
  return {
    missing: wanted.filter((user) => !current.some((member) => isUser(member, user))),
    extra: current.filter((member) => !wanted.some((user) => isUser(member, user))),
  };
}

/**
 * A member's or participant's create or update, by the membership helpers; a team whose only
 * change is its members is left as it is (applyPlan matches them). Whether the step was done here.
 */
export async function applyMembership(
  client: SeqeraClient,
  step: PlanStep,
  work: StepWork,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  const { entry, desired } = work;
  if (step.action === "delete") return false;
  if (entry.kind === "members") {
    await addMembers(client, entry.organization!, entry.name, { signal });
    return true;
  }
  if (entry.kind === "participants") {
    const who = desired.fields.type === "TEAM" ? { team: entry.name } : { user: entry.name };
    await setWorkspaceRole(client, who, desired.fields.wspRole as WorkspaceRole, { signal });
    return true;
  }
  return entry.kind === "teams" && step.changes.every((change) => change.field === "members");
}

/**
 * Makes the team's members those the files name, after the team is created or updated: the
 * missing ones added (members.ts's helper), the others removed.
 */
export async function matchTeamMembers(
  client: SeqeraClient,
  step: PlanStep,
  work: StepWork,
  signal: AbortSignal | undefined,
): Promise<void> {
  const { members } = work.desired;
  if (!members || step.action === "delete") return;
  await addMembers(client, step.name, members, { signal });
  const { orgId, teamId } = await lookup(client, TEAMS, step.name, signal);
  const { extra } = differences(await teamMembers(client, orgId, teamId, signal), members);
  for (const { memberId } of extra) {
    await client.DELETE("/orgs/{orgId}/teams/{teamId}/members/{memberId}/delete", {
      params: { path: { orgId: Number(orgId), teamId: Number(teamId), memberId: memberId! } },
      signal,
    });
  }
}
