import type { Pipeline } from "../state/pipelines.js";
import type { EmulatorResponse } from "../types.js";
import {
  bodyOf,
  FORBIDDEN,
  matches,
  ok,
  paged,
  type RouteContext,
  type StateRoute,
} from "./context.js";
import { computeEnvConfigDto } from "./compute-envs.js";
import { labelDtos } from "./labels.js";
import { namedResource } from "./named-resource.js";

const pipelines = namedResource({
  store: (state) => state.pipelines,
  param: "pipelineId",
  noun: "pipeline",
});

/** Saved pipelines and their launch configurations, keyed by operationId. */
export const pipelineRoutes: Record<string, StateRoute> = {
  ListPipelines(request, ctx) {
    const visibility = String(request.query.visibility ?? "private").toLowerCase();
    const own = visibility === "shared" ? [] : pipelines.search(request, ctx);
    const shared =
      visibility === "all" || visibility === "shared"
        ? sharedWith(ctx).filter((p) => matches(p.name, request))
        : [];
    const sorted = [...own, ...shared].sort((a, b) => a.name.localeCompare(b.name));
    return paged("pipelines", sorted, request, (p) => pipelineDto(ctx, p));
  },

  DescribePipeline: sharedOrOwn((pipeline, ctx) => ok({ pipeline: pipelineDto(ctx, pipeline) })),

  DescribePipelineLaunch: sharedOrOwn((pipeline, ctx) => ok({ launch: launchDto(ctx, pipeline) })),

  CreatePipeline(request, ctx) {
    const body = bodyOf(request);
    const name = pipelines.newName(body.name, ctx);
    if (typeof name !== "string") return name;
    const pipeline = ctx.state.pipelines.add({
      name,
      workspaceId: ctx.workspaceId,
      ...(typeof body.description === "string" && { description: body.description }),
      launch: (body.launch as Record<string, unknown> | undefined) ?? {},
      labelIds: (body.labelIds as number[] | undefined) ?? [],
    });
    return ok({ pipeline: pipelineDto(ctx, pipeline) });
  },

  UpdatePipeline: pipelines.route((pipeline, request, ctx) => {
    const body = bodyOf(request);
    const launch = body.launch as Record<string, unknown> | undefined;
    ctx.state.pipelines.update(pipeline.id, {
      ...(typeof body.name === "string" && { name: body.name }),
      ...(typeof body.description === "string" && { description: body.description }),
      ...(launch && { launch: { ...pipeline.launch, ...launch } }),
      ...(Array.isArray(body.labelIds) && { labelIds: body.labelIds as number[] }),
    });
    return ok({ pipeline: pipelineDto(ctx, pipeline) });
  }),

  DeletePipeline: pipelines.delete,
};

function pipelineDto(ctx: RouteContext, p: Pipeline): Record<string, unknown> {
  const workspace =
    p.workspaceId === undefined ? undefined : ctx.state.workspaces.get(p.workspaceId);
  const org = workspace && ctx.state.organizationOf(workspace);
  const env =
    typeof p.launch.computeEnvId === "string"
      ? ctx.state.computeEnvs.get(p.launch.computeEnvId)
      : undefined;
  return ctx.dto("PipelineDbDto", {
    pipelineId: p.id,
    name: p.name,
    description: p.description,
    repository: p.repository,
    lastUpdated: p.lastUpdated,
    deleted: false,
    userId: ctx.state.user.id,
    userName: ctx.state.user.userName,
    workspaceId: workspace?.id,
    workspaceName: workspace?.name,
    orgId: org?.id,
    orgName: org?.name,
    computeEnv:
      env && ctx.dto("ComputeEnvDbDto", { id: env.id, name: env.name, platform: env.platform }),
    labels: labelDtos(ctx, p.labelIds),
    visibility: p.visibility,
  });
}

/** SHARED pipelines of the other workspaces of the request's workspace's organization. */
function sharedWith(ctx: RouteContext): Pipeline[] {
  const workspace =
    ctx.workspaceId === undefined ? undefined : ctx.state.workspaces.get(ctx.workspaceId);
  if (!workspace) return [];
  return ctx.state.pipelines
    .all()
    .filter(
      (p) =>
        p.visibility === "SHARED" &&
        p.workspaceId !== ctx.workspaceId &&
        p.workspaceId !== undefined &&
        ctx.state.workspaces.get(p.workspaceId)?.orgId === workspace.orgId,
    );
}

/**
 * The pipeline a request may use: one of its workspace, or one shared with it from the
 * workspace `sourceWorkspaceId` names (as tw asks for an organization's shared pipeline).
 */
export function usablePipeline(
  ctx: RouteContext,
  pipeline: Pipeline | undefined,
  sourceWorkspaceId: unknown,
): Pipeline | undefined {
  if (!pipeline) return undefined;
  if (pipeline.workspaceId === ctx.workspaceId) return pipeline;
  const shared = sharedWith(ctx).includes(pipeline);
  return shared && pipeline.workspaceId === sourceWorkspaceId ? pipeline : undefined;
}

function sharedOrOwn(
  answer: (pipeline: Pipeline, ctx: RouteContext) => EmulatorResponse,
): StateRoute {
  return (request, ctx) => {
    const pipeline = ctx.state.pipelines.get(request.params.pipelineId as number);
    const usable = usablePipeline(ctx, pipeline, request.query.sourceWorkspaceId);
    return usable ? answer(usable, ctx) : FORBIDDEN;
  };
}

/** The saved launch as the service describes it: the request fields plus ids and dates. */
function launchDto(ctx: RouteContext, p: Pipeline): Record<string, unknown> {
  const { computeEnvId, labelIds: _labels, ...fields } = p.launch;
  const env =
    typeof computeEnvId === "string" ? ctx.state.computeEnvs.get(computeEnvId) : undefined;
  // The saved fields only: a sampled configText or paramsText would be copied into launches.
  return ctx.dto(ctx.schemaAt("launch"), {
    ...fields,
    id: p.launchId,
    pipeline: p.repository,
    computeEnv: env && computeEnvConfigDto(ctx, env),
    workspaceId: p.workspaceId,
    dateCreated: p.dateCreated,
    lastUpdated: p.lastUpdated,
  });
}
