import { isRecord } from "../../openapi/operations-document.js";
import type { Member, Organization } from "../state/organizations.js";
import type { Team, WorkspaceRole } from "../state/participants.js";
import type { EmulatorRequest } from "../types.js";
import {
  badRequest,
  bodyOf,
  conflict,
  FORBIDDEN,
  NO_CONTENT,
  ok,
  paged,
  type RouteContext,
  type StateRoute,
} from "./context.js";
import { memberDto, participantDto, workspaceOf } from "./organizations.js";

const WORKSPACE_ROLES = new Set(["owner", "admin", "maintain", "launch", "connect", "view"]);
const ORG_ROLES = new Set(["owner", "member", "collaborator"]);

/**
 * Teams and their members, workspace participants and roles, and organization roles, keyed by
 * operationId, with the service's rules: users are named by user name or e-mail in any case, a
 * name or participant already there is a 409, and a team member must belong to the organization.
 */
export const teamRoutes: Record<string, StateRoute> = {
  CreateOrganizationTeam(request, ctx) {
    const org = orgOf(request, ctx);
    if (!org) return FORBIDDEN;
    const team = bodyOf(request).team;
    if (!isRecord(team) || typeof team.name !== "string" || team.name === "") {
      return badRequest("Missing team name");
    }
    if (ctx.state.teams.inOrg(org.id).some((t) => t.name === team.name)) {
      return conflict(`A team named '${team.name}' already exists`);
    }
    const created = ctx.state.teams.add({
      org: org.id,
      name: team.name,
      ...(typeof team.description === "string" && { description: team.description }),
    });
    return ok({ team: teamDto(ctx, created) });
  },

  DescribeOrganizationTeam(request, ctx) {
    const team = teamOf(request, ctx);
    return team ? ok({ team: teamDto(ctx, team) }) : FORBIDDEN;
  },

  UpdateOrganizationTeam(request, ctx) {
    const team = teamOf(request, ctx);
    if (!team) return FORBIDDEN;
    const body = bodyOf(request);
    if (typeof body.name === "string" && body.name !== team.name) {
      if (ctx.state.teams.inOrg(team.orgId).some((t) => t.name === body.name)) {
        return conflict(`A team named '${body.name}' already exists`);
      }
    }
    ctx.state.teams.update(team.id, {
      ...(typeof body.name === "string" && { name: body.name }),
      ...(typeof body.description === "string" && { description: body.description }),
    });
    return NO_CONTENT;
  },

  DeleteOrganizationTeam(request, ctx) {
    const team = teamOf(request, ctx);
    if (!team) return FORBIDDEN;
    for (const p of ctx.state.participants.all()) {
      if (p.teamId === team.id) ctx.state.participants.delete(p.id);
    }
    ctx.state.teams.delete(team.id);
    return NO_CONTENT;
  },

  CreateOrganizationTeamMember(request, ctx) {
    const team = teamOf(request, ctx);
    if (!team) return FORBIDDEN;
    const user = bodyOf(request).userNameOrEmail;
    if (typeof user !== "string" || user === "") return badRequest("Missing user name or email");
    const member = ctx.state.members.find(team.orgId, user);
    if (!member) return badRequest(`User '${user}' is not a member of the organization`);
    if (team.memberIds.includes(member.id)) {
      return conflict(`User '${user}' is already a member of the team`);
    }
    ctx.state.teams.update(team.id, { memberIds: [...team.memberIds, member.id] });
    return ok({ member: memberDto(ctx, member) });
  },

  DeleteOrganizationTeamMember(request, ctx) {
    const team = teamOf(request, ctx);
    if (!team || !team.memberIds.includes(request.params.memberId as number)) return FORBIDDEN;
    const memberIds = team.memberIds.filter((id) => id !== request.params.memberId);
    ctx.state.teams.update(team.id, { memberIds });
    return NO_CONTENT;
  },

  ListWorkspacesByTeam(request, ctx) {
    const team = teamOf(request, ctx);
    if (!team) return FORBIDDEN;
    const org = ctx.state.organizations.get(team.orgId)!;
    const entries = ctx.state.participants
      .all()
      .filter((p) => p.teamId === team.id)
      .flatMap((p) => {
        const w = ctx.state.workspaces.get(p.workspaceId);
        return w ? [{ p, w }] : [];
      });
    return paged("workspaces", entries, request, ({ p, w }) =>
      ctx.dto(ctx.schemaAt("workspaces", "[]"), {
        orgId: org.id,
        orgName: org.name,
        participantId: p.id,
        participantRole: p.role,
        workspaceId: w.id,
        workspaceName: w.name,
        workspaceFullName: w.fullName,
      }),
    );
  },

  CreateWorkspaceParticipant(request, ctx) {
    const workspace = workspaceOf(request.params, ctx);
    if (!workspace) return FORBIDDEN;
    const body = bodyOf(request);
    const who = participantOf(ctx, workspace.orgId, body);
    if (typeof who === "string") return badRequest(who);
    const listed = ctx.state.participants.inWorkspace(workspace.id);
    const already =
      "teamId" in who
        ? listed.some((p) => p.teamId === who.teamId)
        : listed.some((p) => p.memberId === who.memberId);
    if (already) return conflict("The participant is already in the workspace");
    const participant = ctx.state.participants.addTo(workspace, who, "launch");
    return ok({ participant: participantDtoOf(ctx, participant) });
  },

  UpdateWorkspaceParticipantRole(request, ctx) {
    const participant = participantIn(request, ctx);
    if (!participant) return FORBIDDEN;
    const role = bodyOf(request).role;
    if (typeof role !== "string" || !WORKSPACE_ROLES.has(role)) {
      return badRequest(`Invalid participant role '${String(role)}'`);
    }
    ctx.state.participants.update(participant.id, { role: role as WorkspaceRole });
    return NO_CONTENT;
  },

  DeleteWorkspaceParticipant(request, ctx) {
    const participant = participantIn(request, ctx);
    if (!participant) return FORBIDDEN;
    ctx.state.participants.delete(participant.id);
    return NO_CONTENT;
  },

  UpdateOrganizationMemberRole(request, ctx) {
    const member = ctx.state.members.get(request.params.memberId as number);
    if (!member || member.orgId !== request.params.orgId) return FORBIDDEN;
    const role = bodyOf(request).role;
    if (typeof role !== "string" || !ORG_ROLES.has(role)) {
      return badRequest(`Invalid member role '${String(role)}'`);
    }
    ctx.state.members.update(member.id, { role: role as Member["role"] });
    return NO_CONTENT;
  },

  ListOrganizationCollaborators(request, ctx) {
    const org = orgOf(request, ctx);
    if (!org) return FORBIDDEN;
    const collaborators = ctx.state.members.inOrg(org.id).filter((m) => m.role === "collaborator");
    return paged("members", collaborators, request, (m) => memberDto(ctx, m));
  },
};

function orgOf(request: EmulatorRequest, ctx: RouteContext): Organization | undefined {
  return ctx.state.organizations.get(request.params.orgId as number);
}

function teamOf(request: EmulatorRequest, ctx: RouteContext): Team | undefined {
  const team = ctx.state.teams.get(request.params.teamId as number);
  return team && team.orgId === request.params.orgId ? team : undefined;
}

function teamDto(ctx: RouteContext, t: Team): Record<string, unknown> {
  return ctx.dto("TeamDbDto", {
    teamId: t.id,
    name: t.name,
    description: t.description,
    membersCount: t.memberIds.length,
  });
}

/** Who an add names: `teamId`, `memberId`, or a member's user name or e-mail; else why not. */
function participantOf(
  ctx: RouteContext,
  orgId: number,
  body: Record<string, unknown>,
): { teamId: number } | { memberId: number } | string {
  if (typeof body.teamId === "number") {
    const team = ctx.state.teams.get(body.teamId);
    return team?.orgId === orgId ? { teamId: team.id } : `Team ${body.teamId} not found`;
  }
  if (typeof body.memberId === "number") {
    const member = ctx.state.members.get(body.memberId);
    return member?.orgId === orgId ? { memberId: member.id } : `Member ${body.memberId} not found`;
  }
  if (typeof body.userNameOrEmail === "string") {
    const member = ctx.state.members.find(orgId, body.userNameOrEmail);
    return member
      ? { memberId: member.id }
      : `User '${body.userNameOrEmail}' is not a member of the organization`;
  }
  return "Give a memberId, a teamId or a userNameOrEmail";
}

/**
 * The participant a path names. In a workspace still answering its derived participants, the
 * id is a member's (as listed): they are stored then, and the member's is the one named.
 */
function participantIn(request: EmulatorRequest, ctx: RouteContext) {
  const workspace = workspaceOf(request.params, ctx);
  if (!workspace) return undefined;
  const id = request.params.participantId as number;
  if (ctx.state.participants.inWorkspace(workspace.id).length === 0) {
    return ctx.state.participants.materialize(workspace).find((p) => p.memberId === id);
  }
  const participant = ctx.state.participants.get(id);
  return participant?.workspaceId === workspace.id ? participant : undefined;
}

function participantDtoOf(
  ctx: RouteContext,
  p: { id: number; role: WorkspaceRole; memberId?: number; teamId?: number },
): Record<string, unknown> {
  const member = p.memberId === undefined ? undefined : ctx.state.members.get(p.memberId);
  const team = p.teamId === undefined ? undefined : ctx.state.teams.get(p.teamId);
  return participantDto(ctx, p, member, team, ctx.schemaAt("participant"));
}
