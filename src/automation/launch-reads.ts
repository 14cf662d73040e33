/**
 * What a launch reads before it is sent, kept per client family as names are
 * (client/kept-answers.ts): a pipeline's saved launch and a compute environment's configuration
 * are read once, shared by concurrent launches, and read again after this client family changed
 * them (or, for a saved launch, when a launch from it answers 403 or 404), so that a batch of
 * launches of one pipeline costs one call each beyond the first.
 */
import type { SeqeraClient } from "../client/client.js";
import { keptAnswer, withKeptAnswer, type KeptAnswer } from "../client/kept-answers.js";
import { lookup, withFresh } from "../client/lookup.js";
import { UnexpectedAnswerError } from "../errors/unexpected-answer-error.js";
import { FAMILIES } from "../model/families.js";
import { versionIdOf } from "./launch-versions.js";
import { AVAILABLE_COMPUTE_ENVS, PIPELINES, find } from "./names.js";
import type { Pipeline, PipelineLaunch } from "../schema/types.js";

/** A Launchpad pipeline's version to launch (pipeline versioning), by id or by name. */
export interface PipelineVersionSettings {
  /** The version's id (`GET /pipelines/{id}/launch?versionId=`). */
  versionId?: string;
  /** The published version's name, looked up (`GET /pipelines/{id}/versions?search=`). */
  versionName?: string;
}

/** The fields of a compute environment a launch reads (`GET /compute-envs/{id}`). */
export interface ComputeEnvConfig {
  id?: string | null;
  platform?: string | null;
  config?: {
    workDir?: string | null;
    preRunScript?: string | null;
    postRunScript?: string | null;
    nextflowConfig?: string | null;
  } | null;
}

const { create, update, delete: remove } = FAMILIES.pipelines.operations;

/**
 * `GET /pipelines/{pipelineId}/launch`, by the JSON of its workspace, pipeline, version and
 * source workspace; kept for every workspace, so that a change made through another workspace
 * (the pipeline's own, for one shared from the organization) drops it too.
 */
const SAVED_LAUNCHES: KeptAnswer<PipelineLaunch | Record<string, never>> = {
  kind: "pipeline's saved launch",
  global: true,
  changedBy: [
    create,
    update,
    remove,
    "POST /pipelines/{pipelineId}/versions/{versionId}",
    "PUT /pipelines/{pipelineId}/versions/{versionId}/manage",
  ],
  fetch: async (client, signal, key) => {
    // The workspace is the client's: in the key, so that each workspace keeps its own.
    const { pipelineId, sourceWorkspaceId, versionId } = JSON.parse(key);
    // versionId is a query of later releases than 1.85.0's (pipeline versions), sent as given on
    // every line: built apart, as a literal in the call would be refused there for that key.
    const query = { sourceWorkspaceId, versionId };
    const { launch } = await client.GET("/pipelines/{pipelineId}/launch", {
      params: { path: { pipelineId }, query },
      signal,
    });
    return withTextParams("GET /pipelines/{pipelineId}/launch", launch);
  },
};

/** `GET /compute-envs/{computeEnvId}`, by id, in the client's workspace. */
const COMPUTE_ENV_CONFIGS: KeptAnswer<ComputeEnvConfig> = {
  kind: "compute environment's configuration",
  changedBy: [
    FAMILIES["compute-envs"].operations.update!,
    FAMILIES["compute-envs"].operations.delete!,
  ],
  fetch: async (client, signal, computeEnvId) => {
    const { computeEnv } = await client.GET("/compute-envs/{computeEnvId}", {
      params: { path: { computeEnvId } },
      signal,
    });
    return { ...computeEnv, id: computeEnvId };
  },
};

/** A saved launch found by its pipeline's name, and the workspace the pipeline lives in. */
export interface FoundLaunch {
  pipeline: Pipeline;
  launch: PipelineLaunch;
  /** The pipeline's workspace, when it is shared from the organization (not the client's). */
  sourceWorkspaceId: number | undefined;
}

/**
 * Calls `use` with a Launchpad pipeline found by name and its saved launch, of the version
 * asked for. A pipeline shared from the organization lives in another workspace,
 * `sourceWorkspaceId`, which the launch names too. When `use` fails with 403 or 404 and the
 * saved launch was kept, it is read again, and `use` called again if it changed (see
 * withKeptAnswer); when reading it answers 403 or 404, the name is looked up again (withFresh).
 * `use`'s own 403 or 404 is the caller's: it looks nothing up again.
 */
export async function withSavedLaunch<R>(
  client: SeqeraClient,
  name: string,
  version: PipelineVersionSettings,
  signal: AbortSignal | undefined,
  use: (found: FoundLaunch) => Promise<R>,
): Promise<R> {
  const workspaceId = await client.resolveWorkspaceId({ signal });
  const used = new WeakSet<Error>();
  return withFresh(
    client,
    PIPELINES,
    name,
    signal,
    async (pipeline) => {
      const sourceWorkspaceId =
        pipeline.workspaceId != null && String(pipeline.workspaceId) !== workspaceId
          ? pipeline.workspaceId
          : undefined;
      const pipelineId = pipeline.pipelineId!;
      const versionId =
        version.versionId ??
        (version.versionName === undefined
          ? undefined
          : await versionIdOf(client, { pipelineId, name }, version.versionName, signal));
      const key = JSON.stringify({ workspaceId, pipelineId, sourceWorkspaceId, versionId });
      return withKeptAnswer(client, SAVED_LAUNCHES, key, signal, async (launch) => {
        try {
          return await use({ pipeline, launch, sourceWorkspaceId });
        } catch (error) {
          if (error instanceof Error) used.add(error);
          throw error;
        }
      });
    },
    (error) => !used.has(error),
  );
}

/**
 * A Launchpad pipeline found by name and its saved launch (`GET /pipelines/{id}/launch`), of
 * the version asked for (see withSavedLaunch).
 */
export function savedLaunch(
  client: SeqeraClient,
  name: string,
  version: PipelineVersionSettings,
  signal: AbortSignal | undefined,
): Promise<FoundLaunch> {
  return withSavedLaunch(client, name, version, signal, async (found) => found);
}

/**
 * A saved launch (none is `{}`) whose paramsText is text or absent: params are merged into it
 * as text, and anything else is not the API's answer.
 */
export function withTextParams<T extends { paramsText?: unknown }>(
  operation: string,
  launch: T | null | undefined,
): T | Record<string, never> {
  const paramsText: unknown = launch?.paramsText;
  if (paramsText != null && typeof paramsText !== "string") {
    throw new UnexpectedAnswerError(
      operation,
      "launch.paramsText",
      "params as JSON or YAML text",
      paramsText,
    );
  }
  return launch ?? {};
}

/** A compute environment's configuration, by id (kept). */
export function computeEnvConfig(
  client: SeqeraClient,
  computeEnvId: string,
  signal: AbortSignal | undefined,
): Promise<ComputeEnvConfig> {
  return keptAnswer(client, COMPUTE_ENV_CONFIGS, computeEnvId, signal);
}

/** The named (or else primary) AVAILABLE compute environment's configuration. */
export async function namedComputeEnvConfig(
  client: SeqeraClient,
  ref: string | undefined,
  signal: AbortSignal | undefined,
): Promise<ComputeEnvConfig> {
  const id = ref
    ? (await lookup(client, AVAILABLE_COMPUTE_ENVS, ref, signal)).id!
    : (await find.primaryComputeEnv(client, { signal })).id;
  return computeEnvConfig(client, id, signal);
}
