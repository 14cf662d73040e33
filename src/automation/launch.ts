/**
 * Launching: a Launchpad pipeline by name (its saved launch configuration, with params merged)
 * or a repository URL, and relaunching or resuming an earlier run.
 */
import type { SeqeraClient } from "../client/client.js";
import { NameNotFoundError } from "../errors/name-not-found-error.js";
import { ResumeUnavailableError } from "./errors/resume-unavailable-error.js";
import {
  findComputeEnv,
  findLabel,
  findPipeline,
  workspaceIdOf,
  type WorkspaceRef,
} from "./names.js";
import { mergeParamsText, type Params } from "./params.js";
import { waitForRun, type WaitForRunOptions } from "./runs.js";
import type { LaunchRequest, PipelineLaunch, Run, RunLaunch } from "./schema.js";
import { COPIED_FIELDS } from "../../generated/copies.js";

/**
 * A launch configuration as read (`GET /pipelines/{id}/launch`, `GET /workflow/{id}/launch`)
 * turned into the `launch` body of `POST /workflow/launch`: the fields both have, null ones
 * left out, and the compute environment object replaced by its id. Which fields are copied is
 * decided by rule (schema/rules.yaml, copies `launch`): every launch setting of the release,
 * one it adds included, but the compute environment, labels and the creation date.
 */
export function toLaunchRequest(launch: PipelineLaunch | RunLaunch): LaunchRequest {
  const source = launch as Record<string, unknown>;
  const request: Record<string, unknown> = {};
  for (const key of COPIED_FIELDS.launch) {
    if (source[key] != null) request[key] = source[key];
  }
  if (launch.computeEnv?.id) request.computeEnvId = launch.computeEnv.id;
  return request as LaunchRequest;
}

/** What any launch may change over the configuration it starts from. */
export interface LaunchChanges {
  /** The run's workspace; default the client's. */
  workspaceId?: WorkspaceRef;
  /** Deep-merged over the saved params (JSON or YAML, kept in its format). */
  params?: Params;
  /** A compute environment's name; default the saved one, else the workspace's primary. */
  computeEnv?: string;
  /** Labels' names ("name" or "name=value"); each must exist (a typo is a NameNotFoundError, never a new label). */
  labels?: string[];
  /** A branch, tag or commit. */
  revision?: string;
  runName?: string;
  workDir?: string;
  configProfiles?: string[];
  /** Wait for the run to end (true) or as these options say; the result then has `run`. Default no wait. */
  wait?: boolean | Omit<WaitForRunOptions, "workspaceId" | "signal">;
  signal?: AbortSignal;
}

export interface LaunchPipelineOptions extends LaunchChanges {
  /**
   * A pipeline's name in the workspace's Launchpad (launched with its saved configuration), or
   * a repository URL (http://, https://, file:/; launched with the compute environment's defaults).
   */
  pipeline: string;
}

export interface LaunchResult {
  workflowId: string;
  /** The run once it ended, when `wait` was asked. */
  run?: Run;
}

/** Launches a pipeline by name or URL (`POST /workflow/launch`), with `changes` applied. */
export async function launchPipeline(
  client: SeqeraClient,
  options: LaunchPipelineOptions,
): Promise<LaunchResult> {
  const { signal } = options;
  const workspaceId = await workspaceIdOf(client, options.workspaceId, signal);
  let request: LaunchRequest;
  if (/^(https?:\/\/|file:\/)/.test(options.pipeline)) {
    request = { pipeline: options.pipeline };
  } else {
    const pipeline = await findPipeline(client, options.pipeline, { workspaceId, signal });
    const { launch } = await client.GET("/pipelines/{pipelineId}/launch", {
      params: { path: { pipelineId: pipeline.pipelineId! }, query: { workspaceId } },
      signal,
    });
    request = toLaunchRequest(launch ?? {});
  }
  return submit(client, request, options, workspaceId);
}

export interface RelaunchOptions extends Omit<LaunchChanges, "workDir"> {
  /**
   * Resume: run again in the same session and work directory from the commit the run used, so
   * that finished tasks are cached. Default false (a fresh run of the same configuration).
   * ResumeUnavailableError when the service holds no commit for the run.
   */
  resume?: boolean;
}

/** Launches an earlier run's configuration again (`GET /workflow/{id}/launch`), or resumes it. */
export async function relaunchRun(
  client: SeqeraClient,
  workflowId: string,
  options: RelaunchOptions = {},
): Promise<LaunchResult> {
  const { signal } = options;
  const workspaceId = await workspaceIdOf(client, options.workspaceId, signal);
  const query = { workspaceId };
  const [{ workflow }, { launch }] = await Promise.all([
    client.GET("/workflow/{workflowId}", { params: { path: { workflowId }, query }, signal }),
    client.GET("/workflow/{workflowId}/launch", {
      params: { path: { workflowId }, query },
      signal,
    }),
  ]);
  const saved = launch ?? {};
  const request = toLaunchRequest(saved);
  if (options.resume) {
    if (!saved.resumeCommitId) throw new ResumeUnavailableError(workflowId);
    request.resume = true;
    request.sessionId = workflow?.sessionId ?? saved.sessionId ?? undefined;
    request.revision = saved.resumeCommitId;
    request.workDir = saved.resumeDir ?? saved.workDir ?? workflow?.workDir ?? undefined;
  } else {
    // A fresh run: a new session, from the revision asked for rather than the commit it resolved to.
    request.resume = false;
    delete request.sessionId;
    delete request.commitId;
    request.workDir ??= workflow?.workDir ?? undefined;
  }
  return submit(client, request, options, workspaceId);
}

async function submit(
  client: SeqeraClient,
  request: LaunchRequest,
  changes: LaunchChanges,
  workspaceId: number | undefined,
): Promise<LaunchResult> {
  const { signal } = changes;
  const names = { workspaceId, signal };
  if (changes.computeEnv) {
    request.computeEnvId =
      (await findComputeEnv(client, changes.computeEnv, names)).id ?? undefined;
  }
  request.computeEnvId ??= await primaryComputeEnvId(client, workspaceId, signal);
  if (changes.workDir) request.workDir = changes.workDir;
  if (!request.workDir) {
    const { computeEnv } = await client.GET("/compute-envs/{computeEnvId}", {
      params: { path: { computeEnvId: request.computeEnvId! }, query: { workspaceId } },
      signal,
    });
    request.workDir = computeEnv?.config?.workDir ?? undefined;
  }
  if (changes.params)
    request.paramsText = await mergeParamsText(request.paramsText, changes.params);
  if (changes.labels?.length) {
    const labels = await Promise.all(changes.labels.map((name) => findLabel(client, name, names)));
    request.labelIds = labels.map((label) => label.id!);
  }
  if (changes.revision) request.revision = changes.revision;
  if (changes.runName) request.runName = changes.runName;
  if (changes.configProfiles) request.configProfiles = changes.configProfiles;
  const { workflowId } = await client.POST("/workflow/launch", {
    params: { query: { workspaceId } },
    body: { launch: request },
    signal,
  });
  if (!changes.wait) return { workflowId: workflowId! };
  const wait = changes.wait === true ? {} : changes.wait;
  const run = await waitForRun(client, workflowId!, { ...wait, workspaceId, signal });
  return { workflowId: workflowId!, run };
}

/** The id of the workspace's primary compute environment. */
async function primaryComputeEnvId(
  client: SeqeraClient,
  workspaceId: number | undefined,
  signal?: AbortSignal,
): Promise<string> {
  const { computeEnvs: listed } = await client.GET("/compute-envs", {
    params: { query: { workspaceId } },
    signal,
  });
  const computeEnvs = listed ?? [];
  const primary = computeEnvs.find((c) => c.primary);
  if (primary?.id) return primary.id;
  const names = computeEnvs.map((c) => c.name ?? "").filter(Boolean);
  throw new NameNotFoundError(
    "compute environment",
    "(primary)",
    workspaceId,
    names,
    `Workspace ${workspaceId ?? "(personal)"} has no primary compute environment; ` +
      `name one with \`computeEnv\`${names.length ? ` (it has ${names.map((n) => JSON.stringify(n)).join(", ")})` : ""}`,
  );
}
