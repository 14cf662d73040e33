import { ConfigurationError } from "../../errors/configuration-error.js";
import { randomBytes, randomUUID } from "node:crypto";
import { randomId, serviceTimestamp } from "../ids.js";
import { ScopedStore, type WorkspaceResolver } from "./scoped.js";
import { timestamp } from "./store.js";
export * from "./run-model.js";
import { isActive, type Run, type RunInit, type RunStatus, type TaskInit } from "./run-model.js";
import {
  addFailingTasks,
  applySeededTimes,
  banner,
  checkFigures,
  completeTask,
  failTask,
  failureAt,
  failuresLeft,
  failuresOf,
  metFailures,
  newTask,
  pendingOutput,
  runName,
  seedAsIs,
  stringOr,
  summary,
} from "./run-tasks.js";
export { checkEnding, checkFigures, lines } from "./run-tasks.js";

const DEFAULT_TASKS: TaskInit[] = [{ process: "FASTQC", tag: "sample_1" }, { process: "MULTIQC" }];

/**
 * The runs of one emulator. A run moves one step at a time, as a test decides:
 * `advance(id)` goes SUBMITTED → RUNNING, then completes one task after the other, then
 * SUCCEEDED; `finish(id, status)` ends it at once. Tasks and the console log follow.
 */
export class RunStore extends ScopedStore<Run, RunInit> {
  #launched = 0;
  /** When each run was added, and the steps its timeline (`catchUp`) has taken. */
  readonly #timelines = new WeakMap<Run, { from: number; steps: number }>();

  constructor(workspace: WorkspaceResolver) {
    super(() => randomId(14), workspace);
  }

  override add(init: RunInit = {}): Run {
    // A run is created when it is submitted, unless the seed says otherwise.
    const run = super.add({ ...init, dateCreated: init.dateCreated ?? init.submit });
    this.#timelines.set(run, { from: Date.now(), steps: 0 });
    const target = init.status ?? "SUBMITTED";
    const asSeeded = init.tasks?.some((t) => typeof t !== "string" && t.status !== undefined);
    if (asSeeded) return seedAsIs(run, target, init);
    else if (target === "RUNNING") this.advance(run.id);
    else if (target === "UNKNOWN") run.status = "UNKNOWN";
    else if (target === "FAILED" && run.ending?.status === "FAILED") {
      while (isActive(run)) this.advance(run.id);
    } else if (target !== "SUBMITTED") this.finish(run.id, target, init.errorMessage);
    applySeededTimes(run, init);
    return run;
  }

  protected build(base: Run, init: RunInit): Run {
    const launch = init.launch ?? {};
    this.#launched++;
    const tasks = (init.tasks ?? DEFAULT_TASKS).map((t, i) =>
      newTask(i + 1, typeof t === "string" ? { process: t } : t),
    );
    addFailingTasks(tasks, init.ending);
    checkFigures(init, `Run ${base.id}${init.runName ? ` (${init.runName})` : ""}`);
    const resume = init.resume ?? launch.resume === true;
    const submit = timestamp(init.submit, base.dateCreated);
    return {
      ...base,
      status: "SUBMITTED",
      runName: init.runName ?? stringOr(launch.runName, runName(this.#launched)),
      pipeline: stringOr(launch.pipeline, "https://github.com/nextflow-io/hello"),
      ...(init.pipelineId !== undefined && { pipelineId: init.pipelineId }),
      launchId: randomId(22),
      sessionId:
        init.sessionId ??
        (resume && typeof launch.sessionId === "string" ? launch.sessionId : randomUUID()),
      ...(init.commitId !== undefined && { commitId: init.commitId }),
      resume,
      launch,
      submit,
      ...(init.ending && { ending: init.ending }),
      ...(init.relaunchEnding && { relaunchEnding: init.relaunchEnding }),
      ...(init.cost !== undefined && { cost: init.cost }),
      ...(init.progress && { progress: init.progress }),
      ...(typeof launch.computeEnvId === "string" && { computeEnvId: launch.computeEnvId }),
      labelIds: init.labelIds ?? (launch.labelIds as number[] | undefined) ?? [],
      tasks,
      log: [],
      userName: init.userName ?? "emulated-user",
      starred: false,
    };
  }

  /** Changes fields of a run; a new `ending` applies to the steps still to come. */
  override update(id: string, changes: Partial<Omit<Run, "id">>): Run {
    const run = super.update(id, changes);
    if (changes.ending) {
      addFailingTasks(run.tasks, run.ending);
      metFailures.delete(run);
    }
    return run;
  }

  /** Runs of a workspace (undefined: the personal context), last submitted first, as listed. */
  override list(workspaceId: number | undefined): Run[] {
    return super
      .list(workspaceId)
      .reverse()
      .sort((a, b) => b.submit.localeCompare(a.submit));
  }

  /**
   * Moves every active run as far as a timeline of one step per `everyMs` since it was added
   * takes it by `now`, each step dated when it was due (`startEmulator({ runSteps })`).
   */
  catchUp(everyMs: number, now = Date.now()): void {
    for (const run of this.all()) {
      const timeline = this.#timelines.get(run)!;
      while (isActive(run) && timeline.from + (timeline.steps + 1) * everyMs <= now) {
        timeline.steps++;
        this.advance(run.id, new Date(timeline.from + timeline.steps * everyMs));
      }
    }
  }

  /**
   * One step: SUBMITTED → RUNNING (first task running); while RUNNING, the running task
   * completes and the next starts; after the last task, SUCCEEDED. Throws on an ended run.
   * `at` dates the step (default now).
   */
  advance(id: string, at = new Date()): Run {
    const run = this.#active(id);
    const now = serviceTimestamp(at);
    const running = run.tasks.find((t) => t.status === "RUNNING");
    const failure = running && failureAt(run, running);
    if (run.status === "SUBMITTED") {
      run.status = "RUNNING";
      run.start = now;
      run.commitId ??= randomBytes(20).toString("hex");
      run.log.push(...banner(run));
      this.#startNext(run, now);
    } else if (running && failure) {
      failTask(run, running, failure, now);
      if (!failuresLeft(run) || !this.#startNext(run, now)) this.#end(run, "FAILED", now);
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
  ): Run {
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
      const failure = failureAt(run, task) ?? failuresOf(run.ending)[0] ?? {};
      failTask(run, task, { ...failure, errorMessage: errorMessage ?? failure.errorMessage }, now);
      this.#end(run, "FAILED", now);
      return run;
    }
    if (status === "FAILED") {
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
  setStatus(id: string, status: RunStatus): Run {
    const run = this.update(id, { status });
    if (!isActive(run)) run.complete ??= run.lastUpdated;
    return run;
  }

  #active(id: string): Run {
    const run = this.get(id);
    if (!run) throw new ConfigurationError(`No run ${id}`);
    if (!isActive(run)) throw new ConfigurationError(`Run ${id} has ended (${run.status})`);
    return run;
  }

  #startNext(run: Run, now: string): boolean {
    const next = run.tasks.find((t) => t.status === "NEW");
    if (!next) return false;
    next.status = "RUNNING";
    next.submit = next.start = now;
    const seeded = pendingOutput.get(next);
    if (seeded) {
      next.stdout.push(...seeded.stdout);
      next.stderr.push(...seeded.stderr);
    } else next.stdout.push(`Running ${next.name}`);
    run.log.push(`[${next.hash}] Submitted process > ${next.name}`);
    return true;
  }

  #end(run: Run, status: RunStatus, now: string): void {
    run.status = status;
    run.complete = now;
    run.lastUpdated = now;
    run.exitStatus ??= status === "SUCCEEDED" ? 0 : undefined;
    run.log.push(...summary(run, now));
  }
}

/** The console log's closing lines. */
