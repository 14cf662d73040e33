import { ConfigurationError } from "../../errors/configuration-error.js";
import { numericIds, Store, timestamp, type Dated, type Entity } from "./store.js";
import type { Member, Organization, Workspace } from "./organizations.js";

/** A workspace role, as the service names them. */
export type WorkspaceRole = "owner" | "admin" | "maintain" | "launch" | "connect" | "view";

/** A team of an organization's members. */
export interface Team extends Entity<number> {
  orgId: number;
  name: string;
  description?: string;
  /** Member ids. */
  memberIds: number[];
}

export interface TeamInit extends Dated {
  id?: number;
  /** The organization, by name or id. */
  org: string | number;
  name: string;
  description?: string;
  /** Its members, by user name; each must be a member of the organization. */
  members?: string[];
}

/** A member or a team with a role in one workspace. */
export interface Participant extends Entity<number> {
  workspaceId: number;
  role: WorkspaceRole;
  memberId?: number;
  teamId?: number;
}

export interface ParticipantInit extends Dated {
  id?: number;
  /** The workspace, by id or "org/workspace". */
  workspace: number | string;
  /** A member of the workspace's organization, by user name (or give `team`). */
  member?: string;
  /** A team of the workspace's organization, by name. */
  team?: string;
  role: WorkspaceRole;
}

interface Lookup {
  org(ref: string | number): Organization;
  workspace(ref: number | string): Workspace;
  members(orgId: number): Member[];
}

function created(init: Dated): { dateCreated: string; lastUpdated: string } {
  const dateCreated = timestamp(init.dateCreated);
  return { dateCreated, lastUpdated: timestamp(init.lastUpdated, dateCreated) };
}

function memberNamed(lookup: Lookup, orgId: number, userName: string): Member {
  const member = lookup.members(orgId).find((m) => m.userName === userName);
  if (!member) throw new ConfigurationError(`No member ${userName} in organization ${orgId}`);
  return member;
}

export class TeamStore extends Store<Team> {
  constructor(private readonly lookup: Lookup) {
    super(numericIds(300));
  }

  add(init: TeamInit): Team {
    const org = this.lookup.org(init.org);
    return this.insert({
      id: init.id ?? this.newId(),
      orgId: org.id,
      name: init.name,
      ...(init.description !== undefined && { description: init.description }),
      memberIds: (init.members ?? []).map((name) => memberNamed(this.lookup, org.id, name).id),
      ...created(init),
    });
  }

  inOrg(orgId: number): Team[] {
    return this.all().filter((t) => t.orgId === orgId);
  }
}

/**
 * Seeded workspace participants. A workspace with none answers every organization member as
 * a participant (owners as owner, members as launch, collaborators as view).
 */
/** A workspace without participants of its own: every member, with a role from their org role. */
export const DERIVED_ROLES: Record<Member["role"], WorkspaceRole> = {
  owner: "owner",
  member: "launch",
  collaborator: "view",
};

export class ParticipantStore extends Store<Participant> {
  constructor(
    private readonly lookup: Lookup,
    private readonly teams: TeamStore,
  ) {
    super(numericIds(700));
  }

  /** The workspace's participants: seeded or added, else one per organization member. */
  inWorkspace(workspaceId: number): Participant[] {
    return this.all().filter((p) => p.workspaceId === workspaceId);
  }

  /**
   * The workspace's participants, its derived ones stored first when it has none of its own
   * (each then answers under an id of its own, no longer its member's id).
   */
  materialize(workspace: Workspace): Participant[] {
    if (this.inWorkspace(workspace.id).length === 0) {
      for (const m of this.lookup.members(workspace.orgId)) {
        this.insert({
          id: this.newId(),
          workspaceId: workspace.id,
          role: DERIVED_ROLES[m.role],
          memberId: m.id,
          ...created({}),
        });
      }
    }
    return this.inWorkspace(workspace.id);
  }

  /** Adds a member or team by id, the derived participants stored first (see materialize). */
  addTo(
    workspace: Workspace,
    who: { memberId: number } | { teamId: number },
    role: WorkspaceRole,
  ): Participant {
    this.materialize(workspace);
    return this.insert({
      id: this.newId(),
      workspaceId: workspace.id,
      role,
      ...who,
      ...created({}),
    });
  }

  add(init: ParticipantInit): Participant {
    const workspace = this.lookup.workspace(init.workspace);
    if ((init.member === undefined) === (init.team === undefined)) {
      throw new ConfigurationError(
        "A participant is a member or a team: give one of member and team",
      );
    }
    const team =
      init.team === undefined
        ? undefined
        : this.teams.inOrg(workspace.orgId).find((t) => t.name === init.team);
    if (init.team !== undefined && !team) throw new ConfigurationError(`No team ${init.team}`);
    return this.insert({
      id: init.id ?? this.newId(),
      workspaceId: workspace.id,
      role: init.role,
      ...(init.member !== undefined && {
        memberId: memberNamed(this.lookup, workspace.orgId, init.member).id,
      }),
      ...(team && { teamId: team.id }),
      ...created(init),
    });
  }
}
