import { hasOperation } from "../../openapi/require-operation.js";
import type { Pipeline } from "../state/pipelines.js";
import {
  badVersionName,
  defaultVersion,
  editVersion,
  versionHash,
  type PipelineVersion,
} from "../state/pipeline-versions.js";
import type { EmulatorRequest, EmulatorResponse } from "../types.js";
import {
  badRequest,
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

export const pipelines = namedResource({
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

  /** The default version's saved launch, or (`versionId`) that version's. */
  DescribePipelineLaunch: sharedOrOwn((pipeline, ctx, request) => {
    const { versionId } = request.query;
    const version =
      versionId === undefined
        ? defaultVersion(pipeline.versions)
        : pipeline.versions.find((v) => v.id === versionId);
    return version ? ok({ launch: launchDto(ctx, pipeline, version) }) : FORBIDDEN;
  }),

  /** Adds the pipeline with its first version, published (`version.name`) and the default. */
  CreatePipeline(request, ctx) {
    const body = bodyOf(request);
    const name = pipelines.newName(body.name, ctx);
    if (typeof name !== "string") return name;
    const versionName = (body.version as { name?: unknown } | undefined)?.name;
    const refusal = versionName === undefined ? undefined : badVersionName(versionName);
    if (refusal) return badRequest(refusal);
    const pipeline = ctx.state.pipelines.add({
      name,
      workspaceId: ctx.workspaceId,
      ...(typeof body.description === "string" && { description: body.description }),
      launch: (body.launch as Record<string, unknown> | undefined) ?? {},
      ...(typeof versionName === "string" && { versions: [{ name: versionName }] }),
      labelIds: (body.labelIds as number[] | undefined) ?? [],
    });
    return ok({ pipeline: pipelineDto(ctx, pipeline) });
  },

  /** Edits the pipeline: a changed launch is a new draft version of the default one. */
  UpdatePipeline: pipelines.route((pipeline, request, ctx) => {
    const version = updatePipeline(
      ctx,
      pipeline,
      bodyOf(request),
      defaultVersion(pipeline.versions),
    );
    return ok({ pipeline: pipelineDto(ctx, pipeline, version) });
  }),

  DeletePipeline: pipelines.delete,
};

/** Releases before pipeline versions (1.109) edit a pipeline's one saved launch in place. */
const VERSIONED = hasOperation("GET /pipelines/{pipelineId}/versions");

/**
 * An UpdatePipeline or UpdatePipelineVersion body applied: name and description as given, the
 * labels replaced by `labelIds` (absent or null removes them all, as the service's schema
 * says), and a launch edited from `from` (pipeline-versions.ts's editVersion), which is
 * the version the answer names.
 */
export function updatePipeline(
  ctx: RouteContext,
  pipeline: Pipeline,
  body: Record<string, unknown>,
  from: PipelineVersion,
): PipelineVersion {
  const launch = body.launch as Record<string, unknown> | undefined;
  const { pipeline: repository, ...fields } = launch ?? {};
  const version = !launch
    ? from
    : VERSIONED
      ? editVersion(pipeline.versions, from, fields)
      : Object.assign(from, { launch: { ...from.launch, ...fields } });
  ctx.state.pipelines.update(pipeline.id, {
    ...(typeof body.name === "string" && { name: body.name }),
    ...(typeof body.description === "string" && { description: body.description }),
    ...(typeof repository === "string" && { repository }),
    labelIds: Array.isArray(body.labelIds) ? (body.labelIds as number[]) : [],
  });
  return version;
}

/** A pipeline as the service lists it; with `version`, as its versions list gives each. */
export function pipelineDto(
  ctx: RouteContext,
  p: Pipeline,
  version?: PipelineVersion,
): Record<string, unknown> {
  const workspace =
    p.workspaceId === undefined ? undefined : ctx.state.workspaces.get(p.workspaceId);
  const org = workspace && ctx.state.organizationOf(workspace);
  const { computeEnvId } = defaultVersion(p.versions).launch;
  const env =
    typeof computeEnvId === "string" ? ctx.state.computeEnvs.get(computeEnvId) : undefined;
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
    ...(version && VERSIONED && { version: versionDto(ctx, version) }),
  });
}

/** A version as the versions list gives it (`PipelineVersionFullInfoDto`); a draft has no name. */
export function versionDto(ctx: RouteContext, v: PipelineVersion): Record<string, unknown> {
  const { user } = ctx.state;
  return ctx.dto("PipelineVersionFullInfoDto", {
    id: v.id,
    name: v.name,
    isDefault: v.isDefault,
    hash: versionHash(v),
    creatorUserId: user.id,
    creatorUserName: user.userName,
    dateCreated: v.dateCreated,
    lastUpdated: v.lastUpdated,
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

/** A route of a pipeline of the request's workspace or shared with it (`sourceWorkspaceId`). */
export function sharedOrOwn(
  answer: (pipeline: Pipeline, ctx: RouteContext, request: EmulatorRequest) => EmulatorResponse,
): StateRoute {
  return (request, ctx) => {
    const pipeline = ctx.state.pipelines.get(request.params.pipelineId as number);
    const usable = usablePipeline(ctx, pipeline, request.query.sourceWorkspaceId);
    return usable ? answer(usable, ctx, request) : FORBIDDEN;
  };
}

/** A version's saved launch as the service describes it: the request fields, ids and dates. */
function launchDto(
  ctx: RouteContext,
  p: Pipeline,
  version: PipelineVersion,
): Record<string, unknown> {
  const { computeEnvId, labelIds: _labels, ...fields } = version.launch;
  const env =
    typeof computeEnvId === "string" ? ctx.state.computeEnvs.get(computeEnvId) : undefined;
  // The saved fields only: a sampled configText or paramsText would be copied into launches.
  return ctx.dto(ctx.schemaAt("launch"), {
    ...fields,
    id: version.id,
    pipeline: p.repository,
    computeEnv: env && computeEnvConfigDto(ctx, env),
    workspaceId: p.workspaceId,
    dateCreated: version.dateCreated,
    lastUpdated: version.lastUpdated,
  });
}
