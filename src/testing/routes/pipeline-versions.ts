import { badVersionName, type PipelineVersion } from "../state/pipeline-versions.js";
import type { Pipeline } from "../state/pipelines.js";
import {
  badRequest,
  bodyOf,
  conflict,
  NO_CONTENT,
  ok,
  paged,
  type RouteContext,
  type StateRoute,
} from "./context.js";
import { pipelineDto, pipelines, sharedOrOwn, updatePipeline } from "./pipelines.js";

const NOT_FOUND = { status: 404 };

/**
 * A pipeline's versions (state/pipeline-versions.ts), keyed by operationId, as the service's
 * schema describes them: listed oldest first, published ones (`isPublished=true`) or drafts
 * (`false`); a version is edited (a published one into a new draft), renamed (a draft named is
 * published) and made the default.
 */
export const pipelineVersionRoutes: Record<string, StateRoute> = {
  ListPipelineVersions: sharedOrOwn((pipeline, ctx, request) => {
    const { isPublished, search } = request.query;
    const words = typeof search === "string" ? search.toLowerCase() : undefined;
    const listed = pipeline.versions.filter(
      (v) =>
        (isPublished === undefined || (v.name !== undefined) === isPublished) &&
        (words === undefined || (v.name ?? "").toLowerCase().includes(words)),
    );
    return paged("versions", listed, request, (v) => pipelineDto(ctx, pipeline, v));
  }),

  ValidatePipelineVersionName: pipelines.route((pipeline, request) => {
    const { name } = request.query;
    const refusal = badVersionName(name);
    if (refusal) return badRequest(refusal);
    return nameTaken(pipeline, name as string) ?? NO_CONTENT;
  }),

  /** Edits a version as UpdatePipeline edits the default one; the answer names the result. */
  UpdatePipelineVersion: pipelines.route((pipeline, request, ctx) => {
    const from = versionOf(pipeline, request.params.versionId);
    if (!from) return NOT_FOUND;
    const version = updatePipeline(ctx, pipeline, bodyOf(request), from);
    return ok({ pipeline: pipelineDto(ctx, pipeline, version) });
  }),

  /**
   * Renames a version (publishing a draft) and/or makes it the default, unsetting the one
   * before: a draft cannot be the default, the default cannot be unset (409), and a version
   * runs were launched from keeps its name (409).
   */
  ManagePipelineVersion: pipelines.route((pipeline, request, ctx) => {
    const version = versionOf(pipeline, request.params.versionId);
    if (!version) return NOT_FOUND;
    const { name, isDefault } = bodyOf(request);
    if (name !== undefined && name !== version.name) {
      const refusal = badVersionName(name);
      if (refusal) return badRequest(refusal);
      const taken = nameTaken(pipeline, name as string);
      if (taken) return taken;
      if (version.name !== undefined && launchedFrom(ctx, version)) {
        return conflict(`Version '${version.name}' has runs: its name cannot change`);
      }
    }
    if (isDefault === false && version.isDefault) {
      return conflict("The default version cannot be unset: make another version the default");
    }
    if (isDefault === true && name === undefined && version.name === undefined) {
      return badRequest("A draft version cannot be the default: publish it with a name first");
    }
    if (typeof name === "string") version.name = name;
    if (isDefault === true) {
      for (const v of pipeline.versions) v.isDefault = v === version;
    }
    ctx.state.pipelines.update(pipeline.id, {});
    return NO_CONTENT;
  }),
};

function versionOf(pipeline: Pipeline, versionId: unknown): PipelineVersion | undefined {
  return pipeline.versions.find((v) => v.id === versionId);
}

function nameTaken(pipeline: Pipeline, name: string) {
  return pipeline.versions.some((v) => v.name === name)
    ? conflict(`A version named '${name}' already exists for pipeline '${pipeline.name}'`)
    : undefined;
}

/** Whether a run was launched from the version (its launch named the version's id). */
function launchedFrom(ctx: RouteContext, version: PipelineVersion): boolean {
  return ctx.state.runs.all().some((run) => run.launch.id === version.id);
}
