/** Waiting for runs to end and for compute environments to become available. */
import { ConfigurationError } from "../errors/configuration-error.js";
import { ForbiddenError } from "../errors/forbidden-error.js";
import { NotFoundError } from "../errors/not-found-error.js";
import type { SeqeraClient } from "../client/client.js";
import { ComputeEnvFailedError } from "../errors/compute-env-failed-error.js";
import { RunFailedError } from "../errors/run-failed-error.js";
import { UnexpectedAnswerError } from "../errors/unexpected-answer-error.js";
import { identified, type Identified } from "./identified.js";
import { sleep } from "../core/backoff.js";
import { listWorkspaces, type WorkspaceRef } from "./names.js";
import { noteUnknown, pollDelays, waitFor, type PollOptions, type WaitOptions } from "./poll.js";
import type { ComputeEnv, Label, Run, RunStatus, RunSummary, Task } from "../schema/types.js";

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
): Promise<Identified<Run, "id">> {
  const until = new Set(options.until ?? TERMINAL_RUN_STATUSES);
  let failedCount: number | undefined;
  const run = await waitFor<Identified<Run, "id">>(
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
        return identified(workflow, ["id"], "GET /workflow/{workflowId}", "workflow");
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

/** A failed task, with the last lines of its standard error when they were asked for. */
export type FailedTask = Identified<Task, "id"> & {
  /** The last `stderrLines` lines of its `.command.err`; [] when it has none or no task id. */
  stderr?: string[];
};

/**
 * The run's tasks that ended FAILED (`GET /workflow/{workflowId}/tasks`, every page), with
 * their `exitStatus`; with `stderrLines`, each with the last lines of its standard error (`GET
 * /workflow/{workflowId}/download/{taskId}?fileName=.command.err`, one download per failed
 * task, a few at once).
 */
export async function failedTasks(
  client: SeqeraClient,
  workflowId: string,
  options: { stderrLines?: number; signal?: AbortSignal } = {},
): Promise<FailedTask[]> {
  const { signal, stderrLines } = options;
  const tasks = await listFailedTasks(client, workflowId, undefined, signal);
  if (stderrLines === undefined) return tasks;
  if (!(Number.isInteger(stderrLines) && stderrLines > 0)) {
    throw new ConfigurationError(
      `failedTasks: \`stderrLines\` is a whole number of lines above 0, got ${stderrLines}`,
    );
  }
  return mapLimited(tasks, CONCURRENCY, async (task) => {
    if (task.taskId == null) return { ...task, stderr: [] };
    const text = await client
      .GET("/workflow/{workflowId}/download/{taskId}", {
        params: { path: { workflowId, taskId: task.taskId }, query: { fileName: ".command.err" } },
        parseAs: "text",
        signal,
      })
      // A task that wrote no standard error has no such file.
      .catch((error: unknown) => {
        if (error instanceof NotFoundError) return "";
        throw error;
      });
    const lines = text.split("\n");
    if (lines.at(-1) === "") lines.pop();
    return { ...task, stderr: lines.slice(-stderrLines) };
  });
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
): Promise<Identified<Task, "id">[]> {
  const failed: Identified<Task, "id">[] = [];
  if (expected === 0) return failed;
  for await (const item of client.paginate("/workflow/{workflowId}/tasks", {
    params: { path: { workflowId } },
    signal,
  })) {
    if (item.task?.status === "FAILED") {
      failed.push(
        identified(item.task, ["id"], "GET /workflow/{workflowId}/tasks", "tasks[].task"),
      );
    }
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
  /** Runs that ended at or after this instant or day (ended runs only), as `after` takes it. */
  completedAfter?: Date | string;
  /** Runs with one of these labels ("name" or "name=value"). */
  labels?: readonly string[];
  /** More search words as the web interface takes them: part of a run name, `userName:bob`, … */
  search?: string;
  /** Stop after this many runs; default all. */
  limit?: number;
  signal?: AbortSignal;
}

/** A run as listRuns and watchRuns give it: the list's run with its labels and elapsed time. */
export type ListedRun = Identified<RunSummary, "id"> & {
  /** Its labels, `{ name, value }` (value null for a plain label). */
  labels: Label[];
  /** Ms from its start to its end, or to now while it runs; undefined before it starts. */
  elapsedMs: number | undefined;
  /** The workspace it is in, as digits; undefined for a personal workspace's run. */
  workspaceId: string | undefined;
};

/**
 * The workspace's runs, newest first, with their labels (`attributes=labels`) and elapsed time,
 * filtered by the service (`GET /workflow`'s `search`, in the web interface's syntax:
 * `status:FAILED after:2024-05-01 label:nightly`), page by page as the loop asks. The service's
 * `after:`/`before:` take whole days: an instant is sent as its UTC day and the runs of that day
 * outside the instant are left out here, by submit time; `completedAfter` is checked here only.
 *
 * @example
 * const since = new Date(Date.now() - 24 * 3600_000);
 * for await (const run of listRuns(client, { status: "FAILED", after: since })) console.log(run.id);
 */
export async function* listRuns(
  client: SeqeraClient,
  options: ListRunsOptions = {},
): AsyncGenerator<ListedRun, void, undefined> {
  const { signal, limit } = options;
  const statuses = typeof options.status === "string" ? [options.status] : (options.status ?? []);
  const after = bound(options.after, "after");
  const before = bound(options.before, "before");
  const completedAfter = bound(options.completedAfter, "completedAfter");
  const words = [
    ...statuses.map((s) => `status:${s}`),
    ...(options.labels ?? []).map((l) => `label:${l}`),
    ...(after ? [`after:${after.day}`] : []),
    ...(before ? [`before:${before.day}`] : []),
    ...(options.search ? [options.search] : []),
  ];
  const search = words.length ? words.join(" ") : undefined;
  const kept = (run: RunSummary) =>
    within(run.submit ?? run.dateCreated, after?.at, before?.at) &&
    (!completedAfter || within(run.complete, completedAfter.at ?? dayStart(completedAfter.day)));
  const precise = after?.at !== undefined || before?.at !== undefined || !!completedAfter;
  if (limit !== undefined && limit <= 0) return;
  // Offset pages of a list newest first: a run launched while it is read pushes the last run of
  // a page to the top of the next, where it would be given twice.
  const given = new Set<string>();
  for await (const item of client.paginate("/workflow", {
    params: { query: { search, attributes: ["labels"] } },
    // Filtered here, the service's count is not ours: the limit only sizes the pages.
    pageSize: precise ? undefined : limit,
    signal,
  })) {
    if (!item.workflow || (precise && !kept(item.workflow))) continue;
    const run = identified(item.workflow, ["id"], "GET /workflow", "workflows[].workflow");
    if (given.has(run.id)) continue;
    given.add(run.id);
    yield listed(run, item.labels, item.workspaceId);
    if (limit !== undefined && given.size >= limit) return;
  }
}

/** A run with its labels, elapsed time and workspace (ids as digits). */
function listed(
  run: Identified<RunSummary, "id">,
  labels: readonly Label[] | null | undefined,
  workspaceId: number | string | null | undefined,
): ListedRun {
  return {
    ...run,
    labels: [...(labels ?? [])],
    elapsedMs: elapsedMs(run),
    workspaceId: workspaceId == null ? undefined : String(workspaceId),
  };
}

/** Ms from a run's start to its end, or to now while it runs; undefined before it starts. */
export function elapsedMs(run: Pick<RunSummary, "start" | "complete">): number | undefined {
  const start = Date.parse(run.start ?? "");
  const end = run.complete ? Date.parse(run.complete) : Date.now();
  return Number.isNaN(start) ? undefined : Math.max(0, end - start);
}

/** Whether a date-time falls within the bounds (ms; either may be absent). */
function within(value: string | null | undefined, from?: number, to?: number): boolean {
  if (from === undefined && to === undefined) return true;
  const at = Date.parse(value ?? "");
  return !(from !== undefined && !(at >= from)) && !(to !== undefined && !(at <= to));
}

const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** A bound as the service takes it (a UTC day) and, for an instant, the instant in ms. */
function bound(
  value: Date | string | undefined,
  name: string,
): { day: string; at?: number } | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value)) return { day: value };
  const at = instant(value, "listRuns", name);
  return { day: new Date(at).toISOString().slice(0, 10), at };
}

/**
 * The instant, in ms, of a Date, an ISO 8601 date-time or a "YYYY-MM-DD" day (its start, UTC);
 * else a ConfigurationError naming `caller`'s option `name`.
 */
export function instant(value: Date | string, caller: string, name: string): number {
  const at = typeof value === "string" ? Date.parse(value) : value.getTime();
  if (Number.isNaN(at)) {
    throw new ConfigurationError(
      `${caller}: \`${name}\` is a Date, an ISO 8601 date-time or "YYYY-MM-DD", got ${JSON.stringify(String(value))}`,
    );
  }
  return at;
}

export interface WatchRunsOptions extends Omit<ListRunsOptions, "limit">, PollOptions {
  /** The workspaces to watch, ids or "organization/workspace"; default the client's. */
  workspaces?: readonly WorkspaceRef[];
  /** Every workspace of this organization (by name), as listWorkspaces gives them. */
  organization?: string;
  /**
   * End once every run seen has ended (SUCCEEDED, FAILED, CANCELLED or UNKNOWN), checked after
   * each poll: at the first when none is going. A status this release does not list is not an
   * end, as for waitForRun. Default false: the watch goes on until the loop leaves or the signal
   * aborts.
   */
  untilEnded?: boolean;
  /**
   * Called when a workspace's list answers 403 or 404 (the token lost its access, the workspace
   * was deleted), with the workspace as given (an id, or "organization/workspace"): it is no
   * longer watched, its runs not ended are given as "gone", and the others are watched on. Once
   * no workspace is left, the watch rejects with that error.
   */
  onWorkspaceLost?(workspace: string | undefined, error: ForbiddenError | NotFoundError): void;
}

/** What a watch saw happen to a run. */
export interface RunChange {
  /**
   * "seen": listed for the first time; "status": its status changed since the last poll;
   * "gone": it, or its workspace, answered 403 or 404 (deleted, or out of the token's reach),
   * and `run` is as last seen.
   */
  change: "seen" | "status" | "gone";
  run: ListedRun;
  /** Its status at the poll before, for a "status" change. */
  previousStatus?: RunStatus;
}

/** The statuses watched when `status` is not given: runs that are still going. */
const GOING: readonly RunStatus[] = ["SUBMITTED", "RUNNING"];

/** Calls made at once (workspaces of a poll, task downloads); the rate limiter paces them. */
const CONCURRENCY = 4;

/**
 * Watches the runs of many workspaces: each poll lists each workspace's runs once (listRuns,
 * with the same filters; default the runs still going, SUBMITTED or RUNNING), one call per
 * workspace while it has at most 100 such runs, and yields what changed since the poll before.
 * A run that leaves the list before it was seen to end (it ended since, when only going runs
 * are listed) is described (`GET /workflow/{workflowId}`) for its status. The calls go through the
 * client's rate limiter, so 100+ workspaces stay within the token's limit: a poll then takes
 * longer, and the next starts `pollIntervalMs` after it ended (growing while nothing changes).
 *
 * @example
 * for await (const { run, previousStatus } of watchRuns(client, { organization: "acme", untilEnded: true }))
 *   console.log(run.workspaceId, run.id, previousStatus, "->", run.status);
 */
export async function* watchRuns(
  client: SeqeraClient,
  options: WatchRunsOptions = {},
): AsyncGenerator<RunChange, void, undefined> {
  const { signal, workspaces, organization, untilEnded, onWorkspaceLost, ...filters } = options;
  const delays = pollDelays(options);
  const named: { ref: WorkspaceRef | undefined; name: string | undefined }[] =
    organization !== undefined
      ? (await listWorkspaces(client, { organization, signal })).map((w) => ({
          ref: w.workspaceId,
          name: `${w.orgName}/${w.workspaceName}`,
        }))
      : (workspaces ?? [undefined]).map((ref) => ({
          ref,
          name: ref === undefined ? client.config.workspaceId : String(ref),
        }));
  let watched = named.map(({ ref, name }) => ({
    name,
    client: ref === undefined ? client : client.withWorkspace(ref),
    seen: new Map<string, ListedRun>(),
  }));
  const listOptions = { ...filters, status: filters.status ?? GOING, signal };
  for (;;) {
    let lostError: ForbiddenError | NotFoundError | undefined;
    const changes = (
      await mapLimited(watched, CONCURRENCY, async (workspace) => {
        try {
          return await pollWorkspace(workspace.client, workspace.seen, listOptions);
        } catch (error) {
          if (!isGone(error)) throw error;
          // Out of reach: its runs are too; the other workspaces' changes stand.
          lostError = error;
          onWorkspaceLost?.(workspace.name, error);
          const runs = [...workspace.seen.values()].filter((run) => !ended(run.status));
          workspace.seen.clear();
          watched = watched.filter((w) => w !== workspace);
          return runs.map((run): RunChange => ({ change: "gone", run }));
        }
      })
    ).flat();
    yield* changes;
    if (watched.length === 0 && lostError) throw lostError;
    if (untilEnded && watched.every((w) => [...w.seen.values()].every((r) => ended(r.status)))) {
      return;
    }
    await sleep(delays(changes.length > 0), signal);
  }
}

/** A run has ended at a status the release lists as an end; one it does not list is waited through. */
const ended = (status: RunStatus | null | undefined) => status != null && isTerminal(status);

/** 403 or 404: the run or workspace is out of the token's reach, or no longer exists. */
const isGone = (error: unknown): error is ForbiddenError | NotFoundError =>
  error instanceof ForbiddenError || error instanceof NotFoundError;

const LIST_RUNS = { method: "GET", path: "/workflow", operationId: "ListWorkflows" };

/** One workspace's poll: its list, compared with what was seen; a run gone from it is described. */
async function pollWorkspace(
  client: SeqeraClient,
  seen: Map<string, ListedRun>,
  options: ListRunsOptions,
): Promise<RunChange[]> {
  const changes: RunChange[] = [];
  const listedNow = new Set<string>();
  const known = { statuses: RUN_STATUSES, operation: LIST_RUNS, logger: client.config.logger };
  const note = (run: ListedRun) => {
    const before = seen.get(run.id);
    seen.set(run.id, run);
    if (before?.status === run.status) return;
    if (run.status) noteUnknown({ resource: "run", id: run.id, known }, run.status, undefined);
    changes.push(
      before ? { change: "status", run, previousStatus: before.status! } : { change: "seen", run },
    );
  };
  for await (const run of listRuns(client, options)) {
    listedNow.add(run.id);
    note(run);
  }
  for (const [id, before] of seen) {
    if (listedNow.has(id) || ended(before.status)) continue;
    const answer = await client
      .GET("/workflow/{workflowId}", {
        params: { path: { workflowId: id } },
        signal: options.signal,
      })
      .catch((error: unknown) => {
        if (isGone(error)) return undefined;
        throw error;
      });
    if (answer?.workflow) {
      const run = identified(answer.workflow, ["id"], "GET /workflow/{workflowId}", "workflow");
      note(listed(run, before.labels, before.workspaceId));
    } else if (answer === undefined) {
      seen.delete(id);
      changes.push({ change: "gone", run: before });
    }
  }
  return changes;
}

/** `work` over the items, at most `limit` at once; the results in the items' order. */
async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
