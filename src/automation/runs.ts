/** Waiting for runs to end and for compute environments to become available. */
import { ConfigurationError } from "../errors/configuration-error.js";
import type { SeqeraClient } from "../client/client.js";
import { ComputeEnvFailedError } from "./errors/compute-env-failed-error.js";
import { RunFailedError } from "./errors/run-failed-error.js";
import { UnexpectedAnswerError } from "./errors/unexpected-answer-error.js";
import { waitFor, type WaitOptions } from "./poll.js";
import type { ComputeEnv, Run, RunStatus, RunSummary, Task } from "./schema.js";

/** The statuses a run does not leave. UNKNOWN is one: the service gave up hearing from it. */
export const TERMINAL_RUN_STATUSES: readonly RunStatus[] = [
  "SUCCEEDED",
  "FAILED",
  "CANCELLED",
  "UNKNOWN",
];

/** Every status the schema gives a run (from a Record, so that the type-check sees a new one). */
const RUN_STATUSES = Object.keys({
  SUBMITTED: 0,
  RUNNING: 0,
  SUCCEEDED: 0,
  FAILED: 0,
  CANCELLED: 0,
  UNKNOWN: 0,
} satisfies Record<RunStatus, 0>) as readonly RunStatus[];

export interface WaitForRunOptions extends WaitOptions {
  /** Stop at the first of these statuses; default TERMINAL_RUN_STATUSES. A terminal status always stops the wait. */
  until?: readonly RunStatus[];
  /** Called with the run as first seen and each time its status changes. */
  onStatus?(run: Run): void;
  /**
   * Reject with RunFailedError (carrying the run's error message and failed tasks) when the
   * run ends FAILED, CANCELLED or UNKNOWN and that status is not in `until`; default true.
   */
  throwOnFailure?: boolean;
}

/**
 * Polls `GET /workflow/{workflowId}` until the run reaches a status of `until` (default: it
 * ends) and resolves with the run; the interval starts at `pollIntervalMs` and grows while
 * nothing changes. Rejects with RunFailedError for a run that ended without success (unless
 * `throwOnFailure: false`), WaitTimeoutError after `maxWaitMs`, or the signal's reason. A status
 * this release does not list (a newer service's) is not an end: the wait goes on, and says so
 * to the client's logger.
 */
export async function waitForRun(
  client: SeqeraClient,
  workflowId: string,
  options: WaitForRunOptions = {},
): Promise<Run> {
  const until = new Set(options.until ?? TERMINAL_RUN_STATUSES);
  let failedCount: number | undefined;
  const run = await waitFor<Run>(
    {
      resource: "run",
      id: workflowId,
      describe: async (signal) => {
        const answer = await client.GET("/workflow/{workflowId}", {
          params: { path: { workflowId } },
          signal,
        });
        const { workflow, progress } = answer;
        if (!workflow?.status) {
          throw new UnexpectedAnswerError(
            "GET /workflow/{workflowId}",
            workflow ? "workflow.status" : "workflow",
            "a run with a status",
            answer,
          );
        }
        failedCount = progress?.workflowProgress?.failed;
        return workflow;
      },
      statusOf: (r) => r.status ?? undefined,
      isDone: (r) => r.status != null && (until.has(r.status) || isTerminal(r.status)),
      onStatus: options.onStatus,
      known: {
        statuses: RUN_STATUSES,
        operation: {
          method: "GET",
          path: "/workflow/{workflowId}",
          operationId: "DescribeWorkflow",
        },
        logger: client.config.logger,
      },
    },
    options,
  );
  // A failure the caller did not name in `until` is an error (unless opted out).
  const asked = options.until?.includes(run.status!) ?? false;
  if (options.throwOnFailure !== false && run.status !== "SUCCEEDED" && !asked) {
    const tasks = await listFailedTasks(client, workflowId, failedCount, options.signal);
    throw new RunFailedError(workflowId, run, tasks);
  }
  return run;
}

function isTerminal(status: RunStatus): boolean {
  return TERMINAL_RUN_STATUSES.includes(status);
}

/** The run's tasks that ended FAILED (`GET /workflow/{workflowId}/tasks`, every page). */
export async function failedTasks(
  client: SeqeraClient,
  workflowId: string,
  options: { signal?: AbortSignal } = {},
): Promise<Task[]> {
  return listFailedTasks(client, workflowId, undefined, options.signal);
}

/**
 * The tasks list has no status filter: read it in pages, stopping once `expected` (the run's
 * progress count of failed tasks, when known) have been found.
 */
async function listFailedTasks(
  client: SeqeraClient,
  workflowId: string,
  expected: number | undefined,
  signal: AbortSignal | undefined,
): Promise<Task[]> {
  const failed: Task[] = [];
  if (expected === 0) return failed;
  for await (const item of client.paginate("/workflow/{workflowId}/tasks", {
    params: { path: { workflowId } },
    signal,
  })) {
    if (item.task?.status === "FAILED") failed.push(item.task);
    if (expected !== undefined && failed.length >= expected) break;
  }
  return failed;
}

/**
 * Every status a compute environment has in any release (as RUN_STATUSES): all the pinned
 * release's, and those older releases lack (DISABLED, DELETING, DELETED).
 */
const COMPUTE_ENV_STATUSES: readonly string[] = Object.keys({
  CREATING: 0,
  AVAILABLE: 0,
  DISABLED: 0,
  DELETING: 0,
  ERRORED: 0,
  INVALID: 0,
  DELETED: 0,
} satisfies Record<NonNullable<ComputeEnv["status"]>, 0> & Record<string, 0>);

export interface WaitForComputeEnvOptions extends WaitOptions {
  /** Called with the compute environment as first seen and each time its status changes. */
  onStatus?(computeEnv: ComputeEnv): void;
}

/**
 * Polls `GET /compute-envs/{computeEnvId}` while it is CREATING; resolves with it once
 * AVAILABLE. Any other status (ERRORED, INVALID, DISABLED, DELETING, DELETED) rejects with
 * ComputeEnvFailedError carrying the service's message; `maxWaitMs` with WaitTimeoutError. A
 * status this release does not list is waited through, as CREATING is, and logged.
 */
export async function waitForComputeEnv(
  client: SeqeraClient,
  computeEnvId: string,
  options: WaitForComputeEnvOptions = {},
): Promise<ComputeEnv> {
  const computeEnv = await waitFor<ComputeEnv>(
    {
      resource: "compute environment",
      id: computeEnvId,
      describe: async (signal) => {
        const answer = await client.GET("/compute-envs/{computeEnvId}", {
          params: { path: { computeEnvId } },
          signal,
        });
        const { computeEnv } = answer;
        if (!computeEnv?.status) {
          throw new UnexpectedAnswerError(
            "GET /compute-envs/{computeEnvId}",
            computeEnv ? "computeEnv.status" : "computeEnv",
            "a compute environment with a status",
            answer,
          );
        }
        return computeEnv;
      },
      statusOf: (c) => c.status ?? undefined,
      // A status this release does not list is not an end (nor is CREATING).
      isDone: (c) =>
        c.status != null && c.status !== "CREATING" && COMPUTE_ENV_STATUSES.includes(c.status),
      onStatus: options.onStatus,
      known: {
        statuses: COMPUTE_ENV_STATUSES,
        operation: {
          method: "GET",
          path: "/compute-envs/{computeEnvId}",
          operationId: "DescribeComputeEnv",
        },
        logger: client.config.logger,
      },
    },
    options,
  );
  if (computeEnv.status !== "AVAILABLE") throw new ComputeEnvFailedError(computeEnvId, computeEnv);
  return computeEnv;
}

export interface ListRunsOptions {
  /** Runs with one of these statuses. */
  status?: RunStatus | readonly RunStatus[];
  /**
   * Runs submitted at or after this instant (a Date, or an ISO 8601 date-time string), or on or
   * after this day ("YYYY-MM-DD", UTC).
   */
  after?: Date | string;
  /**
   * Runs submitted at or before this instant (a Date, or an ISO 8601 date-time string), or on or
   * before this day ("YYYY-MM-DD", UTC).
   */
  before?: Date | string;
  /** Runs with one of these labels ("name" or "name=value"). */
  labels?: readonly string[];
  /** More search words as the web interface takes them: part of a run name, `userName:bob`, … */
  search?: string;
  /** Stop after this many runs; default all. */
  limit?: number;
  signal?: AbortSignal;
}

/**
 * The workspace's runs, newest first, filtered by the service (`GET /workflow`'s `search`,
 * in the web interface's syntax: `status:FAILED after:2024-05-01 label:nightly`), page by page
 * as the loop asks. The service's `after:`/`before:` take whole days: an instant is sent as its
 * UTC day and the runs of that day outside the instant are left out here, by submit time.
 *
 * @example
 * const since = new Date(Date.now() - 24 * 3600_000);
 * for await (const run of listRuns(client, { status: "FAILED", after: since })) console.log(run.id);
 */
export async function* listRuns(
  client: SeqeraClient,
  options: ListRunsOptions = {},
): AsyncGenerator<RunSummary, void, undefined> {
  const { signal, limit } = options;
  const statuses = typeof options.status === "string" ? [options.status] : (options.status ?? []);
  const after = bound(options.after, "after");
  const before = bound(options.before, "before");
  const words = [
    ...statuses.map((s) => `status:${s}`),
    ...(options.labels ?? []).map((l) => `label:${l}`),
    ...(after ? [`after:${after.day}`] : []),
    ...(before ? [`before:${before.day}`] : []),
    ...(options.search ? [options.search] : []),
  ];
  const search = words.length ? words.join(" ") : undefined;
  const precise = after?.at !== undefined || before?.at !== undefined;
  if (limit !== undefined && limit <= 0) return;
  let count = 0;
  for await (const item of client.paginate("/workflow", {
    params: { query: { search } },
    // Filtered here, the service's count is not ours.
    limit: precise ? undefined : limit,
    signal,
  })) {
    const run = item.workflow;
    if (!run) continue;
    if (precise) {
      const submitted = Date.parse(run.submit ?? run.dateCreated ?? "");
      if (after?.at !== undefined && !(submitted >= after.at)) continue;
      if (before?.at !== undefined && !(submitted <= before.at)) continue;
    }
    yield run;
    if (limit !== undefined && ++count >= limit) return;
  }
}

/** A bound as the service takes it (a UTC day) and, for an instant, the instant in ms. */
function bound(
  value: Date | string | undefined,
  name: string,
): { day: string; at?: number } | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value)) return { day: value };
  const at = typeof value === "string" ? Date.parse(value) : value.getTime();
  if (Number.isNaN(at)) {
    throw new ConfigurationError(
      `listRuns: \`${name}\` is a Date, an ISO 8601 date-time or "YYYY-MM-DD", got ${JSON.stringify(String(value))}`,
    );
  }
  return { day: new Date(at).toISOString().slice(0, 10), at };
}
