import { isRecord } from "../../openapi/operations-document.js";
import { isActive, type RunEnding, type TaskInit, type Run } from "../state/runs.js";
import type { EmulatorRequest } from "../types.js";
import {
  badRequest,
  bodyOf,
  FORBIDDEN,
  findIn,
  NO_CONTENT,
  ok,
  page,
  type RouteContext,
  type StateRoute,
} from "./context.js";
import { launchRecord, progressDto, runCost, scope, workflowDto } from "./run-dtos.js";
import { labelDtos } from "./labels.js";
import { usablePipeline } from "./pipelines.js";
import { runFilter } from "./run-search.js";

/** Runs: launch, list, describe, cancel, delete, keyed by operationId. */
export const runRoutes: Record<string, StateRoute> = {
  CreateWorkflowLaunch(request, ctx) {
    const launch = bodyOf(request).launch;
    if (!isRecord(launch)) return badRequest("Missing launch request");
    // A saved launch (a pipeline's, or an earlier run's, to relaunch it) is named by its id;
    // one from another workspace is not found.
    let saved: SavedLaunch | undefined;
    if (typeof launch.id === "string") {
      saved = savedLaunch(ctx, launch.id, request.query.sourceWorkspaceId);
      if (!saved) return FORBIDDEN;
    }
    const pipeline = typeof launch.pipeline === "string" ? launch.pipeline : saved?.repository;
    if (!pipeline) return badRequest("Missing pipeline repository");
    const computeEnvId =
      typeof launch.computeEnvId === "string"
        ? launch.computeEnvId
        : ctx.state.computeEnvs.primary(ctx.workspaceId)?.id;
    if (!computeEnvId) return badRequest("Missing compute environment");
    const env = findIn(ctx.state.computeEnvs, computeEnvId, ctx);
    if (!env) return FORBIDDEN;
    if (env.status !== "AVAILABLE") {
      return badRequest(`Compute environment '${env.name}' is not available (${env.status})`);
    }
    if (typeof launch.nextflowVersion === "string") {
      const refusal = ctx.state.nextflow.refusal(launch.nextflowVersion, env.platform);
      if (refusal) return badRequest(refusal);
    }
    const labelIds = Array.isArray(launch.labelIds) ? (launch.labelIds as number[]) : [];
    if (labelIds.some((id) => !findIn(ctx.state.labels, id, ctx))) return FORBIDDEN;
    const run = ctx.state.runs.add({
      workspaceId: ctx.workspaceId,
      launch: { ...launch, pipeline, computeEnvId, workDir: launch.workDir ?? env.workDir },
      ...(saved?.pipelineId !== undefined && { pipelineId: saved.pipelineId }),
      ...(saved?.ending && { ending: saved.ending }),
      ...(saved?.tasks && { tasks: saved.tasks }),
      labelIds,
      userName: ctx.state.user.userName,
    });
    return ok({ workflowId: run.id });
  },

  NextflowVersions(_request, ctx) {
    const { nextflow } = ctx.state;
    return ok({
      nextflowVersions: nextflow.versions.map((version) => ({
        ...ctx.dto("NextflowVersion", { version, default: version === nextflow.default }),
      })),
      nextflowVersionPolicyByComputeEnvType: Object.fromEntries(
        Object.entries(nextflow.minVersions).map(([platform, minVersion]) => [
          platform,
          { minVersion, selectable: true },
        ]),
      ),
      nextflowVersionSelectionEnabled: nextflow.selectionEnabled,
      nextflowFeatureMinVersions: {},
    });
  },

  ListWorkflows(request, ctx) {
    const search = typeof request.query.search === "string" ? request.query.search : undefined;
    const runs = ctx.state.runs
      .list(ctx.workspaceId)
      .filter(runFilter(search, (id) => ctx.state.labels.get(id)));
    const shown = page(runs, request);
    const offset = (request.query.offset as number | undefined) ?? 0;
    // As the service: a run's labels only when `attributes` asks for them, else null.
    const withLabels = [request.query.attributes].flat().includes("labels");
    return ok({
      ...ctx.sample(),
      workflows: shown.map((run) => ({
        ...ctx.dto("ListWorkflowsResponse.ListWorkflowsElement", scope(ctx, run)),
        workflow: workflowDto(ctx, "WorkflowDbDto", run),
        labels: withLabels ? labelDtos(ctx, run.labelIds) : null,
        starred: run.starred,
      })),
      totalSize: runs.length,
      hasMore: offset + shown.length < runs.length,
    });
  },

  DescribeWorkflow(request, ctx) {
    const run = findRun(request, ctx);
    if (!run) return FORBIDDEN;
    return ok({
      ...ctx.sample(),
      ...scope(ctx, run),
      workflow: workflowDto(ctx, ctx.schemaAt("workflow"), run),
      labels: labelDtos(ctx, run.labelIds),
      progress: progressDto(ctx, run),
      cost: runCost(run),
      costCurrency: "USD",
      costIsEstimate: run.cost === undefined,
    });
  },

  DescribeWorkflowProgress(request, ctx) {
    const run = findRun(request, ctx);
    if (!run) return FORBIDDEN;
    return ok({ progress: progressDto(ctx, run) });
  },

  DescribeWorkflowLaunch(request, ctx) {
    const run = findRun(request, ctx);
    if (!run) return FORBIDDEN;
    const record = launchRecord(ctx, run);
    // What the run was launched with, and what a resume needs; nothing invented.
    return ok({
      launch: ctx.dto("WorkflowLaunchResponse", {
        ...record,
        pipelineId: run.pipelineId,
        resumeDir: record.workDir,
        resumeCommitId: run.commitId,
      }),
    });
  },

  DescribeLaunch(request, ctx) {
    const launchId = String(request.params.launchId);
    const run = ctx.state.runs.all().find((r) => r.launchId === launchId);
    if (!run || run.workspaceId !== ctx.workspaceId) return FORBIDDEN;
    return ok({
      launch: ctx.dto("LaunchDbDto", {
        ...launchRecord(ctx, run),
        commitId: run.commitId,
        resume: run.resume,
        lastUpdated: run.dateCreated,
      }),
    });
  },

  CancelWorkflow(request, ctx) {
    const run = findRun(request, ctx);
    if (!run) return FORBIDDEN;
    // Cancelling a finished run changes nothing.
    if (isActive(run)) ctx.state.runs.finish(run.id, "CANCELLED");
    return NO_CONTENT;
  },

  DeleteWorkflow(request, ctx) {
    const run = findRun(request, ctx);
    if (!run) return FORBIDDEN;
    if (isActive(run) && request.query.force !== true) {
      return badRequest(`Workflow ${run.id} is active; cancel it or delete with force`);
    }
    ctx.state.runs.delete(run.id);
    return NO_CONTENT;
  },

  DeleteWorkflowMany(request, ctx) {
    const body = bodyOf(request);
    const ids = Array.isArray(body.workflowIds) ? (body.workflowIds as string[]) : [];
    const failedWorkflowIds = ids.filter((id) => {
      const run = findIn(ctx.state.runs, id, ctx);
      const deletable = run !== undefined && (!isActive(run) || request.query.force === true);
      if (deletable) ctx.state.runs.delete(id);
      return !deletable;
    });
    return ok({ failedWorkflowIds });
  },

  ApplyLabelsToWorkflows: labelRuns((_current, given) => given),
  AddLabelsToWorkflows: labelRuns((current, given) => [...new Set([...current, ...given])]),
  RemoveLabelsFromWorkflows: labelRuns((current, given) =>
    current.filter((id) => !given.includes(id)),
  ),

  CreateWorkflowStar(request, ctx) {
    const run = findRun(request, ctx);
    if (!run) return FORBIDDEN;
    run.starred = true;
    return ok({ ...ctx.sample(), workflowId: run.id });
  },

  DeleteWorkflowStar(request, ctx) {
    const run = findRun(request, ctx);
    if (!run) return FORBIDDEN;
    run.starred = false;
    return ok({ ...ctx.sample(), workflowId: run.id });
  },
};

/** Changes the labels of the body's runs; a run or label not in the workspace is a 403. */
function labelRuns(change: (current: number[], given: number[]) => number[]): StateRoute {
  return (request, ctx) => {
    const body = bodyOf(request);
    const workflowIds = (body.workflowIds as string[] | undefined) ?? [];
    const labelIds = (body.labelIds as number[] | undefined) ?? [];
    const runs = workflowIds.map((id) => findIn(ctx.state.runs, id, ctx));
    if (runs.includes(undefined) || labelIds.some((id) => !findIn(ctx.state.labels, id, ctx))) {
      return FORBIDDEN;
    }
    for (const run of runs) run!.labelIds = change(run!.labelIds, labelIds);
    return NO_CONTENT;
  };
}

interface SavedLaunch {
  repository: string;
  pipelineId?: number;
  /** How runs launched from it end: a run's `relaunchEnding`, else its pipeline's `ending`. */
  ending?: RunEnding;
  /** A relaunch runs the tasks of the run it relaunches. */
  tasks?: TaskInit[];
}

/** The repository (and pipeline) of a saved launch in the request's workspace. */
function savedLaunch(
  ctx: RouteContext,
  launchId: string,
  sourceWorkspaceId: unknown,
): SavedLaunch | undefined {
  const saved = ctx.state.pipelines.byLaunchId(launchId);
  if (saved) {
    const pipeline = usablePipeline(ctx, saved, sourceWorkspaceId);
    if (!pipeline) return undefined;
    const version = pipeline.versions.find((v) => v.id === launchId);
    return {
      repository: pipeline.repository,
      pipelineId: pipeline.id,
      ending: ctx.state.pipelines.nextEnding(pipeline, version),
    };
  }
  const run = ctx.state.runs.all().find((r) => r.launchId === launchId);
  if (!run || run.workspaceId !== ctx.workspaceId) return undefined;
  const from = run.pipelineId === undefined ? undefined : ctx.state.pipelines.get(run.pipelineId);
  return {
    repository: run.pipeline,
    ...(run.pipelineId !== undefined && { pipelineId: run.pipelineId }),
    ending: run.relaunchEnding ?? (from && ctx.state.pipelines.nextEnding(from)),
    tasks: run.tasks.map(({ process, tag }) => ({ process, ...(tag !== undefined && { tag }) })),
  };
}

/** The run of the path's `workflowId`, if it is in the request's workspace. */
export function findRun(request: EmulatorRequest, ctx: RouteContext): Run | undefined {
  return findIn(ctx.state.runs, String(request.params.workflowId), ctx);
}
