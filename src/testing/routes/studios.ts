import type { Studio } from "../state/studios.js";
import { badRequest, bodyOf, ok, paged, type RouteContext, type StateRoute } from "./context.js";
import { labelDtos } from "./labels.js";
import { namedResource } from "./named-resource.js";

const stored = namedResource({
  store: (state) => state.studios,
  param: "sessionId",
  noun: "studio",
});

/**
 * Data Studios of a workspace, keyed by operationId: created stopped or starting (`autoStart`),
 * started and stopped through their intermediate statuses (`starting`, `stopping`), which
 * `state.studios.advance(id)` (or a describe under `autoAdvance`) completes.
 */
export const studioRoutes: Record<string, StateRoute> = {
  ListDataStudios(request, ctx) {
    return paged("studios", stored.search(request, ctx), request, (s) => studioDto(ctx, s));
  },

  DescribeDataStudio: stored.route((studio, _request, ctx) => ok(studioDto(ctx, studio))),

  CreateDataStudio(request, ctx) {
    const body = bodyOf(request);
    const name = stored.newName(body.name, ctx);
    if (typeof name !== "string") return name;
    const computeEnvId = body.computeEnvId as string;
    const env = ctx.state.computeEnvs.get(computeEnvId);
    if (!env || env.workspaceId !== ctx.workspaceId) {
      return badRequest(`Compute environment '${computeEnvId}' not found`);
    }
    const studio = ctx.state.studios.add({
      name,
      workspaceId: ctx.workspaceId,
      computeEnvId,
      ...(typeof body.description === "string" && { description: body.description }),
      ...(typeof body.dataStudioToolUrl === "string" && { image: body.dataStudioToolUrl }),
      ...(typeof body.isPrivate === "boolean" && { isPrivate: body.isPrivate }),
      ...(Array.isArray(body.labelIds) && { labelIds: body.labelIds as number[] }),
      ...(typeof body.configuration === "object" &&
        body.configuration !== null && {
          configuration: body.configuration as Record<string, unknown>,
        }),
    });
    if (request.query.autoStart !== false) ctx.state.studios.setStatus(studio.id, "starting");
    return ok({ studio: studioDto(ctx, studio) });
  },

  UpdateDataStudio: stored.route((studio, request, ctx) => {
    const body = bodyOf(request);
    if (typeof body.name === "string") {
      const taken = body.name !== studio.name && stored.nameTaken(body.name, ctx);
      if (taken) return taken;
    }
    ctx.state.studios.update(studio.id, {
      ...(typeof body.name === "string" && { name: body.name }),
      ...(typeof body.description === "string" && { description: body.description }),
    });
    return ok(studioDto(ctx, studio));
  }),

  DeleteDataStudio: stored.delete,

  StartDataStudio: stored.route((studio, _request, ctx) => {
    const submitted = !ACTIVE.has(studio.status);
    if (submitted) ctx.state.studios.setStatus(studio.id, "starting");
    return ok(switched(ctx, studio, submitted));
  }),

  StopDataStudio: stored.route((studio, _request, ctx) => {
    const submitted = ACTIVE.has(studio.status);
    if (submitted) ctx.state.studios.setStatus(studio.id, "stopping");
    return ok(switched(ctx, studio, submitted));
  }),
};

/** Statuses a start leaves alone and a stop ends. */
const ACTIVE = new Set<Studio["status"]>(["starting", "running", "building"]);

function switched(ctx: RouteContext, studio: Studio, jobSubmitted: boolean): unknown {
  return { jobSubmitted, sessionId: studio.id, statusInfo: statusInfo(ctx, studio) };
}

function statusInfo(ctx: RouteContext, studio: Studio): Record<string, unknown> {
  return ctx.dto("DataStudioStatusInfo", {
    status: studio.status,
    message: studio.statusMessage ?? "",
    lastUpdate: studio.statusUpdated,
  });
}

function userInfo(ctx: RouteContext): Record<string, unknown> {
  const { user } = ctx.state;
  return { id: user.id, userName: user.userName, email: user.email, avatar: null };
}

const STEPS = ["Provisioning compute resources", "Mounting data", "Starting the tool"];

/** The start-up steps: done once running, under way while starting, none before a start. */
function progress(studio: Studio): { status: string; message: string; warnings: null }[] {
  if (studio.lastStarted === undefined) return [];
  const done = studio.status === "starting" ? 1 : STEPS.length;
  return STEPS.map((message, i) => ({
    status: i < done ? "succeeded" : i === done ? "in-progress" : "pending",
    message,
    warnings: null,
  }));
}

/** The data links a studio mounts, by id, as its configuration names them. */
function mounted(studio: Studio): string[] {
  const ids = studio.configuration.mountData;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === "string") : [];
}

function studioDto(ctx: RouteContext, studio: Studio): Record<string, unknown> {
  const env = studio.computeEnvId ? ctx.state.computeEnvs.get(studio.computeEnvId) : undefined;
  const tool = /data-studio-([a-z]+)/.exec(studio.image)?.[1] ?? "custom";
  return ctx.dto("DataStudioDto", {
    sessionId: studio.id,
    workspaceId: studio.workspaceId,
    user: userInfo(ctx),
    name: studio.name,
    description: studio.description,
    studioUrl: `https://a${studio.id}.studios.emulated`,
    // The pinned schema leaves this object's properties undeclared; the service sends these.
    computeEnv: env && {
      id: env.id,
      name: env.name,
      platform: env.platform,
      region: env.region ?? null,
    },
    template: { repository: studio.image, icon: tool },
    configuration: ctx.dto("DataStudioConfiguration", studio.configuration),
    mountedDataLinks: mounted(studio)
      .map((id) => ctx.state.dataLinks.get(id))
      .flatMap((link) => (link ? [ctx.dto("DataLinkDto", { ...link, type: "bucket" })] : [])),
    labels: labelDtos(ctx, studio.labelIds),
    dateCreated: studio.dateCreated,
    lastUpdated: studio.lastUpdated,
    lastStarted: studio.lastStarted,
    statusInfo: statusInfo(ctx, studio),
    isPrivate: studio.isPrivate,
    // A private studio admits its creator only, unless the service is told otherwise.
    allowedUsers: studio.isPrivate ? [ctx.dto("UserInfo", { ...userInfo(ctx), avatar: null })] : [],
    progress: progress(studio).map((step) => ctx.dto("DataStudioProgressStep", step)),
    customImage: tool === "custom",
  });
}
