import { SCHEMA_VERSION } from "../../../generated/version.js";
import type { Member, Organization, OrganizationInit, Workspace } from "../state/organizations.js";
import { DERIVED_ROLES, type Team, type WorkspaceRole } from "../state/participants.js";
import type { EmulatorRequest } from "../types.js";
import {
  badRequest,
  bodyOf,
  conflict,
  FORBIDDEN,
  matches,
  NO_CONTENT,
  ok,
  paged,
  type RouteContext,
  type StateRoute,
} from "./context.js";

/** The service, the user, organizations, workspaces and members, keyed by operationId. */
export const organizationRoutes: Record<string, StateRoute> = {
  Info(_request, ctx) {
    // The release the emulator was built from, so checkCompatibility() reads it as the service's.
    return ok({
      serviceInfo: ctx.dto("ServiceInfo", { version: SCHEMA_VERSION, apiVersion: SCHEMA_VERSION }),
    });
  },

  UserInfo(_request, ctx) {
    // No default workspace: a sampled id would name one that does not exist.
    return ok(ctx.dto("DescribeUserResponse", { user: userDto(ctx), needConsent: false }));
  },

  ListWorkspacesUser(request, ctx) {
    if (request.params.userId !== ctx.state.user.id) return FORBIDDEN;
    const entries = ctx.state.organizations.all().flatMap((org) => {
      const base = { ...orgEntry(ctx, org) };
      return [
        base,
        ...ctx.state.workspaces.inOrg(org.id).map((w) => ({
          ...base,
          workspaceId: w.id,
          workspaceName: w.name,
          workspaceFullName: w.fullName,
          visibility: w.visibility,
        })),
      ];
    });
    return ok({ orgsAndWorkspaces: entries });
  },

  ListOrganizations(request, ctx) {
    const orgs = ctx.state.organizations
      .all()
      .filter((o) => request.query.role === undefined || roleIn(ctx, o) === request.query.role);
    return ok({ organizations: orgs.map((o) => orgDto(ctx, o)), totalSize: orgs.length });
  },

  DescribeOrganization(request, ctx) {
    const org = ctx.state.organizations.get(request.params.orgId as number);
    return org ? ok({ organization: orgDto(ctx, org) }) : FORBIDDEN;
  },

  CreateOrganization(request, ctx) {
    const init = bodyOf(request).organization as OrganizationInit | undefined;
    if (!init) return badRequest("Missing organization");
    if (ctx.state.organizations.byName(init.name, undefined)) {
      return conflict(`An organization named '${init.name}' already exists`);
    }
    const org = ctx.state.organizations.add(init);
    return ok({ organization: orgDto(ctx, org) });
  },

  /** Renames the organization, or changes its full name, description, location or website. */
  UpdateOrganization(request, ctx) {
    const org = ctx.state.organizations.get(request.params.orgId as number);
    if (!org) return FORBIDDEN;
    const body = bodyOf(request);
    const other =
      typeof body.name === "string" && ctx.state.organizations.byName(body.name, undefined);
    if (other && other.id !== org.id) {
      return conflict(`An organization named '${String(body.name)}' already exists`);
    }
    const text = (key: string) => (typeof body[key] === "string" ? { [key]: body[key] } : {});
    ctx.state.organizations.update(org.id, {
      ...text("name"),
      ...text("fullName"),
      ...text("description"),
      ...text("location"),
      ...text("website"),
    });
    return NO_CONTENT;
  },

  DeleteOrganization(request, ctx) {
    const org = ctx.state.organizations.get(request.params.orgId as number);
    if (!org) return FORBIDDEN;
    for (const w of ctx.state.workspaces.inOrg(org.id)) ctx.state.workspaces.delete(w.id);
    for (const m of ctx.state.members.inOrg(org.id)) ctx.state.members.delete(m.id);
    ctx.state.organizations.delete(org.id);
    return NO_CONTENT;
  },

  ListWorkspaces(request, ctx) {
    const org = ctx.state.organizations.get(request.params.orgId as number);
    if (!org) return FORBIDDEN;
    return ok({
      workspaces: ctx.state.workspaces.inOrg(org.id).map((w) =>
        ctx.dto("WorkspaceDbDto", {
          id: w.id,
          name: w.name,
          fullName: w.fullName,
          description: w.description,
          visibility: w.visibility,
        }),
      ),
    });
  },

  DescribeWorkspace(request, ctx) {
    const workspace = workspaceOf(request.params, ctx);
    return workspace ? ok({ workspace: workspaceDto(ctx, workspace) }) : FORBIDDEN;
  },

  CreateWorkspace(request, ctx) {
    const org = ctx.state.organizations.get(request.params.orgId as number);
    if (!org) return FORBIDDEN;
    const init = bodyOf(request).workspace as Omit<Workspace, "id" | "orgId"> | undefined;
    if (!init) return badRequest("Missing workspace");
    if (ctx.state.workspaces.inOrg(org.id).some((w) => w.name === init.name)) {
      return conflict(`A workspace named '${init.name}' already exists`);
    }
    const workspace = ctx.state.workspaces.add({ ...init, org: org.id });
    return ok({ workspace: workspaceDto(ctx, workspace) });
  },

  /** Renames the workspace, or changes its full name, description or visibility. */
  UpdateWorkspace(request, ctx) {
    const workspace = workspaceOf(request.params, ctx);
    if (!workspace) return FORBIDDEN;
    const body = bodyOf(request);
    const taken = ctx.state.workspaces
      .inOrg(workspace.orgId)
      .some((w) => w.name === body.name && w.id !== workspace.id);
    if (taken) return conflict(`A workspace named '${String(body.name)}' already exists`);
    const text = (key: string) => (typeof body[key] === "string" ? { [key]: body[key] } : {});
    const updated = ctx.state.workspaces.update(workspace.id, {
      ...text("name"),
      ...text("fullName"),
      ...text("description"),
      ...text("visibility"),
    });
    return ok({ workspace: workspaceDto(ctx, updated) });
  },

  DeleteWorkspace(request, ctx) {
    const workspace = workspaceOf(request.params, ctx);
    if (!workspace) return FORBIDDEN;
    ctx.state.workspaces.delete(workspace.id);
    return NO_CONTENT;
  },

  ListOrganizationMembers(request, ctx) {
    const org = ctx.state.organizations.get(request.params.orgId as number);
    if (!org) return FORBIDDEN;
    const members = membersMatching(ctx, org.id, request);
    return paged("members", members, request, (m) => memberDto(ctx, m));
  },

  CreateOrganizationMember(request, ctx) {
    const org = ctx.state.organizations.get(request.params.orgId as number);
    if (!org) return FORBIDDEN;
    const user = bodyOf(request).user;
    if (typeof user !== "string" || user === "") return badRequest("Missing user name or email");
    // The service compares user names and e-mails in any case.
    if (ctx.state.members.find(org.id, user)) return conflict(`User '${user}' is already a member`);
    const userName = user.includes("@") ? user.split("@")[0]! : user;
    const member = ctx.state.members.add({
      org: org.id,
      userName,
      ...(user.includes("@") && { email: user }),
    });
    return ok({ member: memberDto(ctx, member) });
  },

  DeleteOrganizationMember(request, ctx) {
    const member = ctx.state.members.get(request.params.memberId as number);
    if (!member || member.orgId !== request.params.orgId) return FORBIDDEN;
    // Leaving the organization leaves its teams and workspaces too.
    for (const team of ctx.state.teams.inOrg(member.orgId)) {
      const memberIds = team.memberIds.filter((id) => id !== member.id);
      if (memberIds.length !== team.memberIds.length)
        ctx.state.teams.update(team.id, { memberIds });
    }
    for (const p of ctx.state.participants.all()) {
      if (p.memberId === member.id) ctx.state.participants.delete(p.id);
    }
    ctx.state.members.delete(member.id);
    return NO_CONTENT;
  },

  ListWorkspaceParticipants(request, ctx) {
    const workspace = workspaceOf(request.params, ctx);
    if (!workspace) return FORBIDDEN;
    const seeded = ctx.state.participants.all().filter((p) => p.workspaceId === workspace.id);
    if (seeded.length === 0) {
      const members = membersMatching(ctx, workspace.orgId, request);
      return paged("participants", members, request, (m) =>
        participantDto(ctx, { id: m.id, role: DERIVED_ROLES[m.role] }, m),
      );
    }
    const found = seeded.flatMap((p) => {
      const member = p.memberId === undefined ? undefined : ctx.state.members.get(p.memberId);
      const team = p.teamId === undefined ? undefined : ctx.state.teams.get(p.teamId);
      const name = member ? `${member.userName} ${member.email}` : (team?.name ?? "");
      return matches(name, request) ? [{ participant: p, member, team }] : [];
    });
    return paged("participants", found, request, ({ participant, member, team }) =>
      participantDto(ctx, participant, member, team),
    );
  },

  ListOrganizationTeams(request, ctx) {
    const org = ctx.state.organizations.get(request.params.orgId as number);
    if (!org) return FORBIDDEN;
    const teams = ctx.state.teams.inOrg(org.id).filter((t) => matches(t.name, request));
    return paged("teams", teams, request, (t) =>
      ctx.dto("TeamDbDto", {
        teamId: t.id,
        name: t.name,
        description: t.description,
        membersCount: t.memberIds.length,
      }),
    );
  },

  ListOrganizationTeamMembers(request, ctx) {
    const team = ctx.state.teams.get(request.params.teamId as number);
    if (!team || team.orgId !== request.params.orgId) return FORBIDDEN;
    const members = team.memberIds
      .map((id) => ctx.state.members.get(id))
      .filter((m): m is Member => m !== undefined && matches(`${m.userName} ${m.email}`, request));
    return paged("members", members, request, (m) => memberDto(ctx, m));
  },
};

export function participantDto(
  ctx: RouteContext,
  participant: { id: number; role: WorkspaceRole },
  member?: Member,
  team?: Team,
  schema = ctx.schemaAt("participants", "[]"),
): Record<string, unknown> {
  return ctx.dto(schema, {
    participantId: participant.id,
    memberId: member?.id,
    userName: member?.userName,
    email: member?.email,
    firstName: member?.firstName,
    lastName: member?.lastName,
    orgRole: member?.role,
    teamId: team?.id,
    teamName: team?.name,
    type: team ? "TEAM" : member?.role === "collaborator" ? "COLLABORATOR" : "MEMBER",
    wspRole: participant.role,
  });
}

function userDto(ctx: RouteContext): Record<string, unknown> {
  const { user } = ctx.state;
  return ctx.dto(ctx.schemaAt("user"), {
    id: user.id,
    userName: user.userName,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    dateCreated: user.dateCreated,
    deleted: false,
  });
}

function roleIn(ctx: RouteContext, org: Organization): string | undefined {
  return ctx.state.members.inOrg(org.id).find((m) => m.userId === ctx.state.user.id)?.role;
}

function orgEntry(ctx: RouteContext, org: Organization): Record<string, unknown> {
  return ctx.dto("OrgAndWorkspaceDto", {
    orgId: org.id,
    orgName: org.name,
    roles: [roleIn(ctx, org) ?? "member"],
    workspaceId: undefined,
    workspaceName: undefined,
    workspaceFullName: undefined,
  });
}

function orgDto(ctx: RouteContext, org: Organization): Record<string, unknown> {
  const me = ctx.state.members.inOrg(org.id).find((m) => m.userId === ctx.state.user.id);
  return ctx.dto("OrganizationDbDto", {
    orgId: org.id,
    name: org.name,
    fullName: org.fullName,
    description: org.description,
    location: org.location,
    website: org.website,
    memberId: me?.id,
    memberRole: me?.role,
  });
}

function workspaceDto(ctx: RouteContext, w: Workspace): Record<string, unknown> {
  return ctx.dto("Workspace", {
    id: w.id,
    name: w.name,
    fullName: w.fullName,
    description: w.description,
    visibility: w.visibility,
    dateCreated: w.dateCreated,
    lastUpdated: w.lastUpdated,
  });
}

export function memberDto(ctx: RouteContext, m: Member): Record<string, unknown> {
  return ctx.dto("MemberDbDto", {
    memberId: m.id,
    userId: m.userId,
    userName: m.userName,
    email: m.email,
    firstName: m.firstName,
    lastName: m.lastName,
    role: m.role,
  });
}

/** The organization's members whose user name or email matches the request's `search`. */
function membersMatching(ctx: RouteContext, orgId: number, request: EmulatorRequest): Member[] {
  return ctx.state.members.inOrg(orgId).filter((m) => matches(`${m.userName} ${m.email}`, request));
}

export function workspaceOf(
  params: Record<string, unknown>,
  ctx: RouteContext,
): Workspace | undefined {
  const workspace = ctx.state.workspaces.get(params.workspaceId as number);
  return workspace && workspace.orgId === params.orgId ? workspace : undefined;
}
