/**
 * Launching as the official CLI (tw) does: a Launchpad pipeline by name (its saved launch
 * configuration, params merged) or a repository URL; relaunching or resuming an earlier run;
 * cancelling one. docs/launch.md lists where and why this differs from tw.
 */
import type { SeqeraClient } from "../client/client.js";
import { labelIds } from "./labels.js";
import { versionIdOf } from "./launch-versions.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import type { Identified } from "../model/identified.js";
import { ResumeUnavailableError } from "../errors/resume-unavailable-error.js";
import { UnexpectedAnswerError } from "../errors/unexpected-answer-error.js";
import { AVAILABLE_COMPUTE_ENVS, PIPELINES, find } from "./names.js";
import { lookup, withFresh } from "../client/lookup.js";
import { applyCopiedSettings, type CopiedSettings } from "./launch-settings.js";
import { checkNextflowVersion } from "./nextflow-versions.js";
import { mergeParamsText, type Params } from "./params.js";
import { waitForRun, type WaitForRunOptions } from "./runs.js";
import type { LaunchRequest, Pipeline, PipelineLaunch, Run, RunLaunch } from "../schema/types.js";
import { COPIED_FIELDS, KNOWN_FIELDS } from "../../generated/copies.js";

/**
 * A launch configuration as read (`GET /pipelines/{id}/launch`, `GET /workflow/{id}/launch`)
 * turned into the `launch` body of `POST /workflow/launch`: the fields both have, null ones
 * left out, and the compute environment object replaced by its id. Which fields are copied is
 * decided by rule (schema/rules.yaml, copies `launch`): every launch setting of the release,
 * one it adds included, but the compute environment, labels, the creation date, `resume`,
 * `sessionId` (a launch starts a new session; relaunchRun sets them itself) and `commitId`
 * (the service resolves the revision: only an explicit `commitId` pins one, as with tw). A
 * field this release does not list (a newer service's launch setting) is copied as it is.
 */
export function toLaunchRequest(launch: PipelineLaunch | RunLaunch): LaunchRequest {
  const source = launch as Record<string, unknown>;
  const request: Record<string, unknown> = {};
  for (const key of COPIED_FIELDS.launch) {
    if (source[key] != null) request[key] = source[key];
  }
  // A field this release does not list at all was added by a newer service, whose releases have
  // always added a launch setting to the saved launch and the request together: sent back, so a
  // client older than the service does not drop a setting the user saved.
  const known = KNOWN_FIELDS.launch ?? [];
  for (const [key, value] of Object.entries(source)) {
    if (value != null && !known.includes(key)) request[key] = value;
  }
  if (launch.computeEnv?.id) request.computeEnvId = launch.computeEnv.id;
  return request as LaunchRequest;
}

/**
 * What a launch or relaunch may set over the configuration it starts from: tw's launch options,
 * named as the request's fields (launch-settings.ts lists them, with what each sends). Unset
 * ones keep the saved value.
 */
export interface LaunchSettings extends CopiedSettings {
  /** Deep-merged over the saved params (JSON or YAML, kept in its format). */
  params?: Params;
  /**
   * An AVAILABLE compute environment's name or id; the run then uses its work directory (unless
   * `workDir` is given). Default the saved one, else the workspace's primary.
   */
  computeEnv?: string;
  /**
   * Labels: "name" or "name=value" (a resource label). Missing ones are created; the result's
   * `createdLabels` says which.
   */
  labels?: string[];
  /** Send no resource optimization (the saved `optimizationId`/`optimizationTargets` are dropped). */
  disableOptimization?: boolean;
  /** Wait for the run to end (true) or as these options say; the result then has `run`. Default no wait. */
  wait?: boolean | Omit<WaitForRunOptions, "signal">;
  signal?: AbortSignal;
}

/** A Launchpad pipeline's version to launch (pipeline versioning), by id or by name. */
export interface PipelineVersionSettings {
  /** The version's id (`GET /pipelines/{id}/launch?versionId=`). */
  versionId?: string;
  /** The published version's name, looked up (`GET /pipelines/{id}/versions?search=`). */
  versionName?: string;
}

export interface LaunchResult {
  workflowId: string;
  /** The labels of `labels` that did not exist and were created for this launch. */
  createdLabels: string[];
  /** The run once it ended, when `wait` was asked. */
  run?: Identified<Run, "id">;
  /** relaunchRun with `resume: "if-available"`: whether the run was resumed (false: a fresh run). */
  resumed?: boolean;
}

/** The fields of a compute environment a launch reads (`GET /compute-envs/{id}`). */
interface ComputeEnvConfig {
  id?: string | null;
  config?: {
    workDir?: string | null;
    preRunScript?: string | null;
    postRunScript?: string | null;
    nextflowConfig?: string | null;
  } | null;
}

/**
 * Launches a pipeline by name or URL (`POST /workflow/launch`) with `settings` applied, as
 * `tw launch` does: a named compute environment brings its work directory, the primary one is
 * the AVAILABLE primary, a fresh launch sends no `resume`/`sessionId`, missing labels are
 * created.
 *
 * @example
 * const { workflowId } = await launchPipeline(client, "rnaseq", { params: { genome: "GRCh38" } });
 */
export async function launchPipeline(
  client: SeqeraClient,
  pipeline: string,
  settings: LaunchSettings & PipelineVersionSettings = {},
): Promise<LaunchResult> {
  const { signal } = settings;
  if (/^(https?:\/\/|file:\/)/.test(pipeline)) {
    if (settings.versionId !== undefined || settings.versionName !== undefined) {
      throw new ConfigurationError(
        "launchPipeline: a version (`versionId`, `versionName`) is one of a Launchpad pipeline: name the pipeline, not its repository URL.",
      );
    }
    const computeEnv = await describeComputeEnv(client, settings.computeEnv, signal);
    const request: LaunchRequest = {
      pipeline,
      computeEnvId: computeEnv.id!,
      workDir: computeEnv.config?.workDir ?? undefined,
      preRunScript: computeEnv.config?.preRunScript ?? undefined,
      postRunScript: computeEnv.config?.postRunScript ?? undefined,
    };
    return submit(client, request, settings, undefined);
  }
  const { launch, sourceWorkspaceId } = await savedLaunch(client, pipeline, settings, signal);
  const request = toLaunchRequest(launch);
  if (settings.computeEnv) {
    // Another compute environment: its work directory, and its scripts and config where the
    // saved launch has none.
    const computeEnv = await describeComputeEnv(client, settings.computeEnv, signal);
    const config = computeEnv.config ?? {};
    request.computeEnvId = computeEnv.id!;
    request.workDir = config.workDir ?? undefined;
    request.preRunScript ??= config.preRunScript ?? undefined;
    request.postRunScript ??= config.postRunScript ?? undefined;
    request.configText ??= config.nextflowConfig ?? undefined;
  }
  request.computeEnvId ??= (await find.primaryComputeEnv(client, { signal })).id;
  if (!request.workDir && !settings.workDir) {
    const { computeEnv } = await client.GET("/compute-envs/{computeEnvId}", {
      params: { path: { computeEnvId: request.computeEnvId } },
      signal,
    });
    request.workDir = computeEnv?.config?.workDir ?? undefined;
  }
  return submit(client, request, settings, sourceWorkspaceId);
}

/**
 * A Launchpad pipeline found by name and its saved launch (`GET /pipelines/{id}/launch`), of
 * the version asked for. A pipeline shared from the organization lives in another workspace,
 * `sourceWorkspaceId`, which the launch names too. A kept pipeline id that answers 403/404
 * (deleted, perhaps re-created) is looked up once more; nothing is sent before this succeeds.
 */
export async function savedLaunch(
  client: SeqeraClient,
  name: string,
  version: PipelineVersionSettings,
  signal: AbortSignal | undefined,
): Promise<{ pipeline: Pipeline; launch: PipelineLaunch; sourceWorkspaceId: number | undefined }> {
  const workspaceId = await client.resolveWorkspaceId({ signal });
  return withFresh(client, PIPELINES, name, signal, async (pipeline) => {
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
    // versionId is a query of later releases than 1.85.0's (pipeline versions), sent as given on
    // every line: built apart, as a literal in the call would be refused there for that key.
    const query = { sourceWorkspaceId, versionId };
    const { launch } = await client.GET("/pipelines/{pipelineId}/launch", {
      params: { path: { pipelineId }, query },
      signal,
    });
    return {
      pipeline,
      launch: withTextParams("GET /pipelines/{pipelineId}/launch", launch),
      sourceWorkspaceId,
    };
  });
}

/**
 * A saved launch (none is `{}`) whose paramsText is text or absent: params are merged into it
 * as text, and anything else is not the API's answer.
 */
function withTextParams<T extends { paramsText?: unknown }>(
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

/** The named (or else primary) AVAILABLE compute environment, described for its config. */
async function describeComputeEnv(
  client: SeqeraClient,
  ref: string | undefined,
  signal: AbortSignal | undefined,
): Promise<ComputeEnvConfig> {
  const id = ref
    ? (await lookup(client, AVAILABLE_COMPUTE_ENVS, ref, signal)).id!
    : (await find.primaryComputeEnv(client, { signal })).id;
  const { computeEnv } = await client.GET("/compute-envs/{computeEnvId}", {
    params: { path: { computeEnvId: id } },
    signal,
  });
  return { ...computeEnv, id };
}

export interface RelaunchOptions extends LaunchSettings {
  /**
   * Resume (default true, as tw): run again in the same session, from the commit the run used
   * and in its resume directory, so that finished tasks are cached. ResumeUnavailableError when
   * the service holds no commit for the run. `false`: a fresh run of the same configuration.
   * `"if-available"`: resume when the service holds the run's commit, else a fresh run (the
   * result's `resumed` says which).
   */
  resume?: boolean | "if-available";
  /** Another pipeline (repository URL) to run; only without resume. */
  pipeline?: string;
}

/**
 * Launches an earlier run's configuration again (`GET /workflow/{id}`, `GET
 * /workflow/{id}/launch`, `POST /workflow/launch`), resuming it by default, as `tw runs
 * relaunch` sends it: the run's `launchId` as the launch `id`, its session on resume.
 */
export async function relaunchRun(
  client: SeqeraClient,
  workflowId: string,
  options: RelaunchOptions = {},
): Promise<LaunchResult> {
  const { signal } = options;
  const asked = options.resume ?? true;
  if (asked && options.workDir !== undefined) {
    throw new ConfigurationError(
      "relaunchRun: a resumed run keeps its work directory; pass `resume: false` to run in another `workDir`.",
    );
  }
  if (asked && options.pipeline !== undefined) {
    throw new ConfigurationError(
      "relaunchRun: a resumed run keeps its pipeline; pass `resume: false` to run another `pipeline`.",
    );
  }
  const [{ workflow }, { launch }] = await Promise.all([
    client.GET("/workflow/{workflowId}", {
      params: { path: { workflowId } },
      signal,
    }),
    client.GET("/workflow/{workflowId}/launch", {
      params: { path: { workflowId } },
      signal,
    }),
  ]);
  const saved = withTextParams("GET /workflow/{workflowId}/launch", launch);
  if (asked === true && !saved.resumeCommitId) throw new ResumeUnavailableError(workflowId);
  const resume = asked !== false && !!saved.resumeCommitId;
  const request = toLaunchRequest(saved);
  // A relaunch gets a new run name unless one is given.
  delete request.runName;
  request.id = workflow?.launchId ?? undefined;
  request.resume = resume;
  request.sessionId = (resume ? workflow?.sessionId : undefined) ?? saved.sessionId ?? undefined;
  request.dateCreated = new Date().toISOString();
  if (options.pipeline) request.pipeline = options.pipeline;
  if (resume) {
    request.revision = saved.resumeCommitId!;
    request.workDir = saved.resumeDir ?? saved.workDir ?? workflow?.workDir ?? undefined;
  } else {
    request.revision = saved.revision ?? undefined;
    request.workDir = saved.workDir ?? workflow?.workDir ?? undefined;
  }
  if (options.computeEnv) {
    request.computeEnvId = (
      await lookup(client, AVAILABLE_COMPUTE_ENVS, options.computeEnv, signal)
    ).id!;
  }
  const result = await submit(client, request, options, undefined);
  return asked === "if-available" ? { ...result, resumed: resume } : result;
}

/** Cancels a run (`POST /workflow/{workflowId}/cancel`). */
export async function cancelRun(
  client: SeqeraClient,
  workflowId: string,
  options: { signal?: AbortSignal } = {},
): Promise<void> {
  const { signal } = options;
  await client.POST("/workflow/{workflowId}/cancel", {
    params: { path: { workflowId } },
    body: {},
    signal,
  });
}

/** The settings every launch applies over its base request, then the launch and the wait. */
async function submit(
  client: SeqeraClient,
  request: LaunchRequest,
  settings: LaunchSettings,
  sourceWorkspaceId: number | undefined,
): Promise<LaunchResult> {
  const { signal } = settings;
  applyCopiedSettings(request, settings);
  if (settings.nextflowVersion !== undefined) {
    await checkNextflowVersion(
      client,
      settings.nextflowVersion,
      await computeEnvType(client, request.computeEnvId, signal),
      signal,
    );
  }
  if (settings.disableOptimization) {
    delete request.optimizationId;
    delete request.optimizationTargets;
  }
  if (settings.params) {
    request.paramsText = await mergeParamsText(request.paramsText, settings.params);
  }
  let createdLabels: string[] = [];
  if (settings.labels?.length) {
    const labels = await labelIds(client, settings.labels, signal);
    request.labelIds = labels.ids;
    createdLabels = labels.created;
  }
  const launched = await client.POST("/workflow/launch", {
    params: { query: { sourceWorkspaceId } },
    body: { launch: request },
    signal,
  });
  const { workflowId } = launched;
  if (!settings.wait) return { workflowId, createdLabels };
  const wait = settings.wait === true ? {} : settings.wait;
  const run = await waitForRun(client, workflowId, { ...wait, signal });
  return { workflowId, createdLabels, run };
}

/** The compute environment's type (`platform`), which the Nextflow version policy is keyed by. */
async function computeEnvType(
  client: SeqeraClient,
  computeEnvId: string | null | undefined,
  signal: AbortSignal | undefined,
): Promise<string | undefined> {
  if (!computeEnvId) return undefined;
  const { computeEnv } = await client.GET("/compute-envs/{computeEnvId}", {
    params: { path: { computeEnvId } },
    signal,
  });
  return computeEnv?.platform ?? undefined;
}
