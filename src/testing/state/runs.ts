import { randomBytes } from "node:crypto";
import { randomId, serviceTimestamp } from "../ids.js";
import { ScopedStore, type ScopedInit, type WorkspaceResolver } from "./scoped.js";
import type { Entity } from "./store.js";

export type WorkflowStatus =
  "SUBMITTED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED" | "UNKNOWN";
export type TaskStatus =
  "NEW" | "SUBMITTED" | "RUNNING" | "CACHED" | "COMPLETED" | "FAILED" | "ABORTED";

const ACTIVE: ReadonlySet<WorkflowStatus> = new Set(["SUBMITTED", "RUNNING"]);

/** One task (process execution) of a run. */
export interface WorkflowTask {
  taskId: number;
  /** The process, e.g. "FASTQC". */
  process: string;
  /** The process and its tag, e.g. "FASTQC (sample_1)". */
  name: string;
  tag?: string;
  /** Nextflow's short work-directory hash, e.g. "3f/a1b2c3". */
  hash: string;
  status: TaskStatus;
  exitStatus?: number;
  submit?: string;
  start?: string;
  complete?: string;
  errorMessage?: string;
  /** The task's standard output (`.command.out`), as its log lines. */
  stdout: string[];
}

/** One run the emulator knows, launched through the API or added by a test. */
export interface WorkflowRun extends Entity<string> {
  status: WorkflowStatus;
  runName: string;
  /** The repository it runs (launch.pipeline), also its project name. */
  pipeline: string;
  /** The saved pipeline it was launched from, when it was. */
  pipelineId?: number;
  /** The launch request's `launch` object, as sent (or seeded). */
  launch: Record<string, unknown>;
  computeEnvId?: string;
  labelIds: number[];
  tasks: WorkflowTask[];
  /** The console log (what `GET /workflow/{id}/log` pages through); grows as the run advances. */
  log: string[];
  start?: string;
  complete?: string;
  errorMessage?: string;
  exitStatus?: number;
  userName: string;
  starred: boolean;
}

export interface TaskInit {
  process: string;
  tag?: string;
}

export interface WorkflowInit extends ScopedInit {
  id?: string;
  /** Default "SUBMITTED"; a later status is reached by the same steps as `advance`/`finish`. */
  status?: WorkflowStatus;
  /** Default `launch.runName`, else "emulated_run_<n>". */
  runName?: string;
  launch?: Record<string, unknown>;
  pipelineId?: number;
  labelIds?: number[];
  /** The tasks the run will execute, in order: process names or `{ process, tag }`. Default
   * two tasks, "FASTQC (sample_1)" and "MULTIQC". */
  tasks?: (string | TaskInit)[];
  /** Default "emulated-user". */
  userName?: string;
  /** The failure message when `status` is "FAILED". */
  errorMessage?: string;
}

const DEFAULT_TASKS: TaskInit[] = [{ process: "FASTQC", tag: "sample_1" }, { process: "MULTIQC" }];

export function isActive(run: WorkflowRun): boolean {
  return ACTIVE.has(run.status);
}

/**
 * The runs of one emulator. A run moves one step at a time, as a test decides:
 * `advance(id)` goes SUBMITTED → RUNNING, then completes one task after the other, then
 * SUCCEEDED; `finish(id, status)` ends it at once. Tasks and the console log follow.
 */
export class RunStore extends ScopedStore<WorkflowRun, WorkflowInit> {
  #launched = 0;

  constructor(workspace: WorkspaceResolver) {
    super(() => randomId(14), workspace);
  }

  override add(init: WorkflowInit = {}): WorkflowRun {
    const run = super.add(init);
    const target = init.status ?? "SUBMITTED";
    if (target === "RUNNING") this.advance(run.id);
    else if (target === "UNKNOWN") run.status = "UNKNOWN";
    else if (target !== "SUBMITTED") this.finish(run.id, target, init.errorMessage);
    return run;
  }

  protected build(base: WorkflowRun, init: WorkflowInit): WorkflowRun {
    const launch = init.launch ?? {};
    this.#launched++;
    const tasks = (init.tasks ?? DEFAULT_TASKS).map((t, i) =>
      newTask(i + 1, typeof t === "string" ? { process: t } : t),
    );
    return {
      ...base,
      status: "SUBMITTED",
      runName: init.runName ?? stringOr(launch.runName, `emulated_run_${this.#launched}`),
      pipeline: stringOr(launch.pipeline, "https://github.com/nextflow-io/hello"),
      ...(init.pipelineId !== undefined && { pipelineId: init.pipelineId }),
      launch,
      ...(typeof launch.computeEnvId === "string" && { computeEnvId: launch.computeEnvId }),
      labelIds: init.labelIds ?? (launch.labelIds as number[] | undefined) ?? [],
      tasks,
      log: [],
      userName: init.userName ?? "emulated-user",
      starred: false,
    };
  }

  /** Runs of a workspace (undefined: the personal context), newest first as the service lists them. */
  override list(workspaceId: number | undefined): WorkflowRun[] {
    return super
      .list(workspaceId)
      .reverse()
      .sort((a, b) => b.dateCreated.localeCompare(a.dateCreated));
  }

  /**
   * One step: SUBMITTED → RUNNING (first task running); while RUNNING, the running task
   * completes and the next starts; after the last task, SUCCEEDED. Throws on an ended run.
   */
  advance(id: string): WorkflowRun {
    const run = this.#active(id);
    const now = serviceTimestamp(new Date());
    const running = run.tasks.find((t) => t.status === "RUNNING");
    if (run.status === "SUBMITTED") {
      run.status = "RUNNING";
      run.start = now;
      run.log.push(
        "N E X T F L O W  ~  version 24.10.0",
        `Launching \`${run.pipeline}\` [${run.runName}] DSL2 - revision: ${String(run.launch.revision ?? "main")}`,
        "",
      );
      this.#startNext(run, now);
    } else if (running) {
      completeTask(run, running, now);
      if (!this.#startNext(run, now)) this.#end(run, "SUCCEEDED", now);
    } else this.#end(run, "SUCCEEDED", now);
    run.lastUpdated = now;
    return run;
  }

  /**
   * Ends a run: SUCCEEDED completes its remaining tasks; FAILED fails the running (or next)
   * task with exit status 1 and `errorMessage`; CANCELLED aborts the running task.
   */
  finish(
    id: string,
    status: "SUCCEEDED" | "FAILED" | "CANCELLED" = "SUCCEEDED",
    errorMessage?: string,
  ): WorkflowRun {
    const run = this.#active(id);
    const now = serviceTimestamp(new Date());
    // A failure belongs to a task, so a submitted run starts its first one before failing.
    if (run.status === "SUBMITTED" && status === "FAILED") this.advance(id);
    if (status === "SUCCEEDED") {
      while (isActive(run)) this.advance(id);
      return run;
    }
    const task = run.tasks.find((t) => t.status === "RUNNING");
    if (task && status === "FAILED") {
      task.status = "FAILED";
      task.exitStatus = 1;
      task.complete = now;
      task.errorMessage =
        errorMessage ?? `Process \`${task.process}\` terminated with an error exit status (1)`;
      task.stdout.push("ERROR: emulated failure");
      run.log.push(
        `[${task.hash}] NOTE: Process \`${task.name}\` terminated with an error exit status (1)`,
        `ERROR ~ Error executing process > '${task.name}'`,
      );
      run.errorMessage = task.errorMessage;
      run.exitStatus = 1;
    } else if (status === "FAILED") {
      run.errorMessage = errorMessage ?? "Emulated failure";
      run.exitStatus = 1;
    } else if (task) {
      task.status = "ABORTED";
      task.complete = now;
    }
    this.#end(run, status, now);
    return run;
  }

  /** Sets the status alone (tasks and log unchanged), for a state no step reaches. */
  setStatus(id: string, status: WorkflowStatus): WorkflowRun {
    const run = this.update(id, { status });
    if (!isActive(run)) run.complete ??= run.lastUpdated;
    return run;
  }

  #active(id: string): WorkflowRun {
    const run = this.get(id);
    if (!run) throw new Error(`No workflow run ${id}`);
    if (!isActive(run)) throw new Error(`Workflow run ${id} has ended (${run.status})`);
    return run;
  }

  #startNext(run: WorkflowRun, now: string): boolean {
    const next = run.tasks.find((t) => t.status === "NEW");
    if (!next) return false;
    next.status = "RUNNING";
    next.submit = next.start = now;
    next.stdout.push(`Running ${next.name}`);
    run.log.push(`[${next.hash}] Submitted process > ${next.name}`);
    return true;
  }

  #end(run: WorkflowRun, status: WorkflowStatus, now: string): void {
    run.status = status;
    run.complete = now;
    run.lastUpdated = now;
    const done = run.tasks.filter((t) => t.status === "COMPLETED").length;
    run.log.push(
      "",
      `Completed at: ${now}`,
      `Succeeded   : ${done}`,
      ...(status === "FAILED" ? [`Failed      : 1`] : []),
    );
  }
}

function newTask(taskId: number, init: TaskInit): WorkflowTask {
  const hex = randomBytes(4).toString("hex");
  return {
    taskId,
    process: init.process,
    name: init.tag ? `${init.process} (${init.tag})` : init.process,
    ...(init.tag !== undefined && { tag: init.tag }),
    hash: `${hex.slice(0, 2)}/${hex.slice(2)}`,
    status: "NEW",
    stdout: [],
  };
}

function completeTask(run: WorkflowRun, task: WorkflowTask, now: string): void {
  task.status = "COMPLETED";
  task.exitStatus = 0;
  task.complete = now;
  task.stdout.push(`${task.name} done`);
  run.log.push(`[${task.hash}] Completed process > ${task.name}`);
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === "string" && value !== "" ? value : fallback;
}
