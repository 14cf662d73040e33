import type { Run, RunTask } from "../state/runs.js";
import { isActive } from "../state/runs.js";
import type { EmulatorRequest, EmulatorResponse } from "../types.js";
import { FORBIDDEN, ok, page, type RouteContext, type StateRoute } from "./context.js";
import { millisBetween, runClock } from "./run-dtos.js";
import { findRun } from "./runs.js";
import { realtime, taskCost } from "../state/run-figures.js";

/** A run's tasks, its console log (paged by tokens) and the files it offers, by operationId. */
export const runLogRoutes: Record<string, StateRoute> = {
  ListWorkflowTasks(request, ctx) {
    const run = findRun(request, ctx);
    if (!run) return FORBIDDEN;
    const search =
      typeof request.query.search === "string" ? request.query.search.toLowerCase() : "";
    // Tasks the run has not reached yet are not known to the service.
    const tasks = run.tasks
      .filter((t) => t.status !== "NEW")
      .filter((t) => t.name.toLowerCase().includes(search));
    return ok({
      tasks: page(tasks, request).map((t) => ({ task: taskDto(ctx, run, t) })),
      total: tasks.length,
    });
  },

  DescribeWorkflowTask(request, ctx) {
    const found = findTask(request, ctx);
    return found ? ok({ task: taskDto(ctx, found.run, found.task) }) : FORBIDDEN;
  },

  GetWorkflowLog(request, ctx) {
    const run = findRun(request, ctx);
    if (!run) return FORBIDDEN;
    return ok({
      log: logPage(ctx, request, run.log, isActive(run), [
        {
          fileName: `nf-${run.id}.txt`,
          displayText: "Console output",
          saveName: `${run.runName}.txt`,
        },
        {
          fileName: `nf-${run.id}.log`,
          displayText: "Nextflow log file",
          saveName: `${run.runName}.log`,
        },
      ]),
    });
  },

  GetWorkflowTaskLog(request, ctx) {
    const found = findTask(request, ctx);
    if (!found) return FORBIDDEN;
    const { task } = found;
    return ok({
      log: logPage(
        ctx,
        request,
        task.stdout,
        task.status === "RUNNING" || task.status === "SUBMITTED",
        TASK_FILES.map((fileName) => ({
          fileName,
          displayText: fileName,
          saveName: `${task.name}${fileName}`,
        })),
      ),
    });
  },

  DownloadWorkflowLog(request, ctx) {
    const run = findRun(request, ctx);
    if (!run) return FORBIDDEN;
    const fileName = request.query.fileName;
    const files: Record<string, string[]> = {
      [`nf-${run.id}.txt`]: run.log,
      [`nf-${run.id}.log`]: run.log.map((line) => `DEBUG nextflow.Session - ${line}`),
    };
    const lines = typeof fileName === "string" ? files[fileName] : run.log;
    return lines ? text(lines) : notFound(fileName);
  },

  DownloadWorkflowTaskLog(request, ctx) {
    const found = findTask(request, ctx);
    if (!found) return FORBIDDEN;
    const fileName = request.query.fileName ?? ".command.out";
    const { task } = found;
    const files: Record<string, string[]> = {
      ".command.out": task.stdout,
      ".command.err": task.stderr,
      ".command.log": commandLog(task),
    };
    const lines = files[String(fileName)];
    return lines ? text(lines) : notFound(fileName);
  },
};

const TASK_FILES = [".command.out", ".command.err", ".command.log"];

/** `.command.log`: the task's stdout, then its stderr. */
function commandLog(task: RunTask): string[] {
  return [...task.stdout, ...task.stderr];
}

/**
 * A page of log lines from the position `next` names (the start when absent), at most
 * `maxLength` characters (never less than one line). `forwardToken` is where the next
 * request continues, also when there is nothing new yet; `pending` says more will come.
 */
function logPage(
  ctx: RouteContext,
  request: EmulatorRequest,
  lines: string[],
  pending: boolean,
  downloads: Record<string, string>[],
): Record<string, unknown> {
  const next = request.query.next;
  const start =
    typeof next === "string" && /^\d+$/.test(next) ? Math.min(Number(next), lines.length) : 0;
  const maxLength = request.query.maxLength as number | undefined;
  let end = start;
  let size = 0;
  while (end < lines.length) {
    size += lines[end]!.length + 1;
    if (maxLength !== undefined && size > maxLength && end > start) break;
    end++;
  }
  return ctx.dto("LogPage", {
    entries: lines.slice(start, end),
    truncated: end < lines.length,
    rewindToken: String(start),
    forwardToken: String(end),
    pending,
    message: lines.length === 0 && pending ? "Log not available yet" : undefined,
    downloads,
  });
}

function findTask(
  request: EmulatorRequest,
  ctx: RouteContext,
): { run: Run; task: RunTask } | undefined {
  const run = findRun(request, ctx);
  const task = run?.tasks.find((t) => t.taskId === request.params.taskId && t.status !== "NEW");
  return run && task ? { run, task } : undefined;
}

function taskDto(ctx: RouteContext, run: Run, t: RunTask): Record<string, unknown> {
  const workDir = typeof run.launch.workDir === "string" ? run.launch.workDir : "work";
  const now = runClock(run);
  return ctx.dto("Task", {
    taskId: t.taskId,
    id: t.taskId,
    hash: t.hash,
    name: t.name,
    process: t.process,
    tag: t.tag,
    status: t.status,
    exitStatus: t.exitStatus,
    exit: t.exitStatus,
    errorMessage: t.errorMessage,
    submit: t.submit,
    start: t.start,
    complete: t.complete,
    dateCreated: t.submit,
    lastUpdated: t.complete ?? t.start,
    duration: t.submit && t.complete ? millisBetween(t.submit, t.complete) : undefined,
    realtime: realtime(t, now),
    cpus: t.cpus,
    memory: t.memory,
    cost: t.start ? taskCost(t, now) : undefined,
    workdir: `${workDir}/${t.hash}`,
    attempt: 1,
  });
}

function text(lines: string[]): EmulatorResponse {
  const body = lines.length === 0 ? "" : `${lines.join("\n")}\n`;
  return { status: 200, body, headers: { "content-type": "text/plain" } };
}

function notFound(fileName: unknown): EmulatorResponse {
  return { status: 404, body: { message: `File '${String(fileName)}' not found` } };
}
