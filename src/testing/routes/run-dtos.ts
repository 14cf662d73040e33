/** A run as the service's answers show it: its launch record, scope, figures and progress. */
import { isActive, type Run, type RunTask } from "../state/runs.js";
import { computeEnvConfigDto } from "./compute-envs.js";
import type { RouteContext } from "./context.js";
import { loadOf } from "../state/run-figures.js";

/** A run's launch as its launch records answer it: what it was launched with, under its name. */
export function launchRecord(ctx: RouteContext, run: Run): Record<string, unknown> {
  const { computeEnvId, labelIds: _labels, ...fields } = run.launch;
  const env =
    typeof computeEnvId === "string" ? ctx.state.computeEnvs.get(computeEnvId) : undefined;
  return {
    ...fields,
    id: run.launchId,
    pipeline: run.pipeline,
    runName: run.runName,
    computeEnv: env && computeEnvConfigDto(ctx, env),
    sessionId: run.sessionId,
    workDir: runWorkDir(ctx, run),
    dateCreated: run.dateCreated,
  };
}

/** The workspace and organization fields of a run's answers; none for the personal context. */
export function scope(ctx: RouteContext, run: Run): Record<string, unknown> {
  const workspace =
    run.workspaceId === undefined ? undefined : ctx.state.workspaces.get(run.workspaceId);
  const org = workspace && ctx.state.organizationOf(workspace);
  return {
    workspaceId: workspace?.id,
    workspaceName: workspace?.name,
    orgId: org?.id,
    orgName: org?.name,
  };
}

/** The run as a `WorkflowDbDto` (list) or `WorkflowMaxDbDto` (describe). */
export function workflowDto(ctx: RouteContext, schema: string, run: Run): Record<string, unknown> {
  const launch = run.launch;
  return ctx.dto(schema, {
    id: run.id,
    status: run.status,
    runName: run.runName,
    projectName: projectName(run.pipeline),
    repository: run.pipeline,
    revision: typeof launch.revision === "string" ? launch.revision : undefined,
    workDir: runWorkDir(ctx, run),
    launchId: run.launchId,
    sessionId: run.sessionId,
    commitId: run.commitId,
    userName: run.userName,
    ownerId: ctx.state.user.id,
    dateCreated: run.dateCreated,
    submit: run.submit,
    lastUpdated: run.lastUpdated,
    start: run.start,
    complete: run.complete,
    duration: run.start && run.complete ? millisBetween(run.start, run.complete) : undefined,
    resume: run.resume,
    configProfiles: Array.isArray(launch.configProfiles) ? launch.configProfiles : undefined,
    success: run.status === "SUCCEEDED" ? true : isActive(run) ? undefined : false,
    ...(run.start !== undefined && {
      nextflow: ctx.dto("WfNextflow", NEXTFLOW),
      manifest: ctx.dto("WfManifest", {
        name: projectName(run.pipeline),
        homePage: run.pipeline,
        mainScript: "main.nf",
        defaultBranch: "main",
      }),
    }),
    stats: isActive(run) ? undefined : statsDto(ctx, run),
    errorMessage: run.errorMessage,
    exitStatus: run.exitStatus,
  });
}

/** The Nextflow version runs report (the one their console log names). */
const NEXTFLOW = { version: "24.10.0", build: "5928", timestamp: "2024-10-27T19:06:32Z" };

const STAT_STATUSES = { succeed: "COMPLETED", cached: "CACHED", failed: "FAILED" } as const;

/** `stats` of an ended run: its tasks counted by outcome. */
export function statsDto(ctx: RouteContext, run: Run): Record<string, unknown> {
  const ran = run.tasks.filter((t) => t.status !== "NEW");
  const values: Record<string, unknown> = { ignoredCount: 0, ignoredCountFmt: "0", ignoredPct: 0 };
  for (const [key, status] of Object.entries(STAT_STATUSES)) {
    const tasks = ran.filter((t) => t.status === status);
    values[`${key}Count`] = tasks.length;
    values[`${key}CountFmt`] = String(tasks.length);
    values[`${key}Pct`] = ran.length === 0 ? 0 : (100 * tasks.length) / ran.length;
    values[`${key}Duration`] = tasks.reduce(
      (sum, t) => sum + (t.start && t.complete ? millisBetween(t.start, t.complete) : 0),
      0,
    );
  }
  values.computeTimeFmt = "0.0";
  return ctx.dto("WfStats", values);
}

/**
 * `progress`: the run's tasks counted by status, overall and per process, with their resource
 * figures (the run's as seeded, else derived from its tasks).
 */
export function progressDto(ctx: RouteContext, run: Run): Record<string, unknown> {
  const now = runClock(run);
  const counts = (tasks: RunTask[]) => ({
    pending: tasks.filter((t) => t.status === "NEW").length,
    submitted: tasks.filter((t) => t.status === "SUBMITTED").length,
    running: tasks.filter((t) => t.status === "RUNNING").length,
    succeeded: tasks.filter((t) => t.status === "COMPLETED").length,
    cached: tasks.filter((t) => t.status === "CACHED").length,
    failed: tasks.filter((t) => t.status === "FAILED").length,
    aborted: tasks.filter((t) => t.status === "ABORTED").length,
    ...loadOf(tasks, now),
    dateCreated: run.dateCreated,
    lastUpdated: run.lastUpdated,
  });
  const processes = [...new Set(run.tasks.map((t) => t.process))];
  return ctx.dto("ProgressData", {
    workflowProgress: ctx.dto("WorkflowLoad", {
      ...counts(run.tasks),
      ...run.progress,
      cost: runCost(run),
      executors: ["awsbatch"],
    }),
    processesProgress: processes.map((process) =>
      ctx.dto("ProcessLoad", {
        process,
        ...counts(run.tasks.filter((t) => t.process === process)),
      }),
    ),
    totalProcesses: processes.length,
  });
}

/** The time a run's figures are taken at: now while it runs, its end once ended. */
export function runClock(run: Run): string {
  return isActive(run) ? new Date().toISOString() : (run.complete ?? run.lastUpdated);
}

/** The run's cost in USD: as seeded (null: none), else its tasks'. */
export function runCost(run: Run): number | null {
  return run.cost === undefined ? loadOf(run.tasks, runClock(run)).cost : run.cost;
}

/** The run's work directory: its launch's, else (a seeded run) its compute env's. */
export function runWorkDir(ctx: RouteContext, run: Run): string | undefined {
  if (typeof run.launch.workDir === "string") return run.launch.workDir;
  return run.computeEnvId === undefined
    ? undefined
    : ctx.state.computeEnvs.get(run.computeEnvId)?.workDir;
}

/** Nextflow's project name: "nf-core/rnaseq" for "https://github.com/nf-core/rnaseq(.git)". */
export function projectName(repository: string): string {
  const match = /^[a-z]+:\/\/[^/]+\/(.+?)(?:\.git)?\/?$/i.exec(repository);
  return match ? match[1]! : repository;
}

export function millisBetween(from: string, to: string): number {
  return Date.parse(to) - Date.parse(from);
}
