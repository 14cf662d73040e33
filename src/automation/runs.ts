/** Waiting for a run to end, and reading its failed tasks. */
import { ConfigurationError } from "../errors/configuration-error.js";
import { mapLimited } from "../core/map-limited.js";
import { NotFoundError } from "../errors/not-found-error.js";
import type { SeqeraClient } from "../client/client.js";
import { RunFailedError } from "../errors/run-failed-error.js";
import { UnexpectedAnswerError } from "../errors/unexpected-answer-error.js";
import { identified, type Identified } from "../model/identified.js";
import { waitFor, type WaitOptions } from "./poll.js";
import type { Run, RunStatus, Task } from "../schema/types.js";

/** Calls made at once (workspaces of a poll, task downloads); the rate limiter paces them. */
export const CONCURRENCY = 4;

/** The statuses a run does not leave. UNKNOWN is one: the service gave up hearing from it. */
export const TERMINAL_RUN_STATUSES: readonly RunStatus[] = [
  "SUCCEEDED",
  "FAILED",
  "CANCELLED",
  "UNKNOWN",
];

/** Every status the schema gives a run (from a Record, so that the type-check sees a new one). */
export const RUN_STATUSES = Object.keys({
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

export function isTerminal(status: RunStatus): boolean {
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
