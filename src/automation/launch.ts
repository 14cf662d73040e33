/**
 * Launching as the official CLI (tw) does: a Launchpad pipeline by name (its saved launch
 * configuration, params merged) or a repository URL; relaunching or resuming an earlier run;
 * cancelling one. docs/launch.md lists where and why this differs from tw.
 */
import type { SeqeraClient } from "../client/client.js";
import { labelIds } from "./labels.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import type { Identified } from "../model/identified.js";
import { ResumeUnavailableError } from "../errors/resume-unavailable-error.js";
import { AVAILABLE_COMPUTE_ENVS, find } from "./names.js";
import { lookup } from "../client/lookup.js";
import { applyCopiedSettings, type CopiedSettings } from "./launch-settings.js";
import {
  computeEnvConfig,
  namedComputeEnvConfig,
  withSavedLaunch,
  withTextParams,
  type PipelineVersionSettings,
} from "./launch-reads.js";
import { checkNextflowVersion } from "./nextflow-versions.js";
import { checkResumeKeeps } from "./relaunch-rule.js";
import { launchParams, mergeParamsText, type Params } from "./params.js";
import { waitForRun, type WaitForRunOptions } from "./runs.js";
import type { LaunchRequest, PipelineLaunch, Run, RunLaunch } from "../schema/types.js";
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
  /**
   * Deep-merged over the saved params (JSON or YAML, kept in its format): an object, or a params
   * document as text (JSON or YAML, e.g. a file's content).
   */
  params?: Params | string;
  /** A JSON or YAML params file's path, read and deep-merged before `params` (as `--params-file`). */
  paramsFile?: string;
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

export interface LaunchResult {
  workflowId: string;
  /** The labels of `labels` that did not exist and were created for this launch. */
  createdLabels: string[];
  /** The run once it ended, when `wait` was asked. */
  run?: Identified<Run, "id">;
  /** relaunchRun with `resume: "if-available"`: whether the run was resumed (false: a fresh run). */
  resumed?: boolean;
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
  const once = await prepared(client, settings);
  if (/^(https?:\/\/|file:\/)/.test(pipeline)) {
    if (settings.versionId !== undefined || settings.versionName !== undefined) {
      throw new ConfigurationError(
        "launchPipeline: a version (`versionId`, `versionName`) is one of a Launchpad pipeline: name the pipeline, not its repository URL.",
      );
    }
    const computeEnv = await namedComputeEnvConfig(client, settings.computeEnv, signal);
    const request: LaunchRequest = {
      pipeline,
      computeEnvId: computeEnv.id!,
      workDir: computeEnv.config?.workDir ?? undefined,
      preRunScript: computeEnv.config?.preRunScript ?? undefined,
      postRunScript: computeEnv.config?.postRunScript ?? undefined,
    };
    return waited(client, await send(client, request, settings, undefined, once), settings);
  }
  const launched = await withSavedLaunch(
    client,
    pipeline,
    settings,
    signal,
    async ({ launch, sourceWorkspaceId }) => {
      const request = toLaunchRequest(launch);
      if (settings.computeEnv) {
        // Another compute environment: its work directory, and its scripts and config where the
        // saved launch has none.
        const computeEnv = await namedComputeEnvConfig(client, settings.computeEnv, signal);
        const config = computeEnv.config ?? {};
        request.computeEnvId = computeEnv.id!;
        request.workDir = config.workDir ?? undefined;
        request.preRunScript ??= config.preRunScript ?? undefined;
        request.postRunScript ??= config.postRunScript ?? undefined;
        request.configText ??= config.nextflowConfig ?? undefined;
      }
      request.computeEnvId ??= (await find.primaryComputeEnv(client, { signal })).id;
      if (!request.workDir && !settings.workDir) {
        const { config } = await computeEnvConfig(client, request.computeEnvId, signal);
        request.workDir = config?.workDir ?? undefined;
      }
      return send(client, request, settings, sourceWorkspaceId, once);
    },
  );
  return waited(client, launched, settings);
}

/**
 * The params of a launch, read once, and its labels, looked up (and created when missing) once,
 * though a launch whose saved configuration went stale is sent again (launch-reads.ts):
 * `createdLabels` stays true.
 */
async function prepared(client: SeqeraClient, settings: LaunchSettings): Promise<Prepared> {
  // Read before any call: a params file that cannot be used launches nothing.
  const params = await launchParams(settings, settings.signal);
  let labels: Promise<{ ids: number[]; created: string[] }> | undefined;
  return {
    params,
    labels: () => (labels ??= labelIds(client, settings.labels ?? [], settings.signal)),
  };
}

/** What a launch sends however often it is sent: its params, its labels' ids once found. */
interface Prepared {
  params: Params | undefined;
  labels: () => Promise<{ ids: number[]; created: string[] }>;
}

export interface RelaunchOptions extends LaunchSettings {
  /**
   * Resume (default true, as tw): run again in the same session, from the commit the run used
   * and in its resume directory, so that finished tasks are cached (another `workDir` or
   * `pipeline` is then a ConfigurationError). ResumeUnavailableError when
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
  checkResumeKeeps(options);
  const once = await prepared(client, options);
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
  const sent = await send(client, request, options, undefined, once);
  const result = await waited(client, sent, options);
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

/** The settings every launch applies over its base request, then the launch. */
async function send(
  client: SeqeraClient,
  request: LaunchRequest,
  settings: LaunchSettings,
  sourceWorkspaceId: number | undefined,
  { params, labels }: Prepared,
): Promise<LaunchResult> {
  const { signal } = settings;
  applyCopiedSettings(request, settings);
  if (settings.nextflowVersion !== undefined) {
    // The policy is keyed by the compute environment's type (`platform`).
    const platform = request.computeEnvId
      ? (await computeEnvConfig(client, request.computeEnvId, signal)).platform
      : undefined;
    await checkNextflowVersion(client, settings.nextflowVersion, platform ?? undefined, signal);
  }
  if (settings.disableOptimization) {
    delete request.optimizationId;
    delete request.optimizationTargets;
  }
  if (params) request.paramsText = await mergeParamsText(request.paramsText, params);
  let createdLabels: string[] = [];
  if (settings.labels?.length) {
    const { ids, created } = await labels();
    request.labelIds = ids;
    createdLabels = created;
  }
  const launched = await client.POST("/workflow/launch", {
    params: { query: { sourceWorkspaceId } },
    body: { launch: request },
    signal,
  });
  return { workflowId: launched.workflowId, createdLabels };
}

/** The launch's result, with its run once it ended when `wait` was asked. */
async function waited(
  client: SeqeraClient,
  launched: LaunchResult,
  settings: LaunchSettings,
): Promise<LaunchResult> {
  if (!settings.wait) return launched;
  const wait = settings.wait === true ? {} : settings.wait;
  const run = await waitForRun(client, launched.workflowId, { ...wait, signal: settings.signal });
  return { ...launched, run };
}
