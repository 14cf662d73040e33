import { ConfigurationError } from "../../errors/configuration-error.js";
import { randomBytes, randomUUID } from "node:crypto";
import { randomId, serviceTimestamp } from "../ids.js";
import { ScopedStore, type ScopedInit, type WorkspaceResolver } from "./scoped.js";
import { timestamp, type Entity } from "./store.js";
import { DEFAULT_CPUS, DEFAULT_MEMORY, type SeededLoad } from "./run-figures.js";

export type RunStatus = "SUBMITTED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED" | "UNKNOWN";
export type TaskStatus =
  "NEW" | "SUBMITTED" | "RUNNING" | "CACHED" | "COMPLETED" | "FAILED" | "ABORTED";

const ACTIVE: ReadonlySet<RunStatus> = new Set(["SUBMITTED", "RUNNING"]);

/** One task (process execution) of a run. */
export interface RunTask {
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
  /** The task's standard error (`.command.err`), as its log lines. */
  stderr: string[];
  /** The CPUs it asked for. */
  cpus: number;
  /** The memory it asked for, in bytes. */
  memory: number;
}

/** One run the emulator knows, launched through the API or added by a test. */
export interface Run extends Entity<string> {
  status: RunStatus;
  runName: string;
  /** The repository it runs (launch.pipeline), also its project name. */
  pipeline: string;
  /** The saved pipeline it was launched from, when it was. */
  pipelineId?: number;
  /** The id of the run's own launch record, which a relaunch sends back as `launch.id`. */
  launchId: string;
  /** Nextflow's session, which a resume continues. */
  sessionId: string;
  /** The commit Nextflow resolved when the run started (none before), which a resume reuses. */
  commitId?: string;
  /** Whether it resumed an earlier run's session (a relaunch with `resume: true`). */
  resume: boolean;
  /** The launch request's `launch` object, as sent (or seeded). */
  launch: Record<string, unknown>;
  computeEnvId?: string;
  labelIds: number[];
  tasks: RunTask[];
  /** The console log (what `GET /workflow/{id}/log` pages through); grows as the run advances. */
  log: string[];
  /** When it was submitted (its `dateCreated` unless seeded). */
  submit: string;
  start?: string;
  complete?: string;
  errorMessage?: string;
  exitStatus?: number;
  userName: string;
  starred: boolean;
  /** How the run ends when advanced; default SUCCEEDED. */
  ending?: RunEnding;
  /** How runs relaunched from this one end when advanced; default SUCCEEDED. */
  relaunchEnding?: RunEnding;
  /** Its cost in USD as seeded (null: the service has none); else the sum of its tasks'. */
  cost?: number | null;
  /** `workflowProgress` figures as seeded; the others are derived from its tasks. */
  progress?: SeededLoad;
}

/** How one task fails. */
export interface TaskFailure {
  /** The task that fails, by process ("FASTQC") or name ("FASTQC (sample_1)"); default the last. */
  task?: string;
  /** The failing task's exit status; default 1. */
  exitStatus?: number;
  /** Default "Process `<process>` terminated with an error exit status (<exitStatus>)". */
  errorMessage?: string;
  /** The failing task's standard error lines (a string is split at newlines); default the message. */
  stderr?: string | string[];
}

/**
 * How a run ends when it is advanced (`state.runs.advance`, a describe with `autoAdvance`, a
 * list poll or the clock with `runSteps`, `seqera-api emulator`): SUCCEEDED, or FAILED at one task (the `TaskFailure` fields) or at
 * several (`failures`, each failing when its task runs; the run ends after the last).
 */
export interface RunEnding extends TaskFailure {
  status: "SUCCEEDED" | "FAILED";
  /** Several failing tasks, instead of the one the other fields describe. */
  failures?: TaskFailure[];
}

/**
 * How runs launched from a pipeline (or one of its versions) end: one ending for all, or a
 * list the launches take in turn (the first launch the first ending, ..., then from the start
 * again), so that some runs of one pipeline fail and others succeed.
 */
export type Endings = RunEnding | RunEnding[];

/**
 * A task to seed. With a `status` it is taken as given (times, exit status, logs), and so is
 * its run: no step is taken for it.
 */
export interface TaskInit {
  process: string;
  tag?: string;
  status?: TaskStatus;
  exitStatus?: number;
  submit?: string | Date;
  start?: string | Date;
  complete?: string | Date;
  errorMessage?: string;
  /** `.command.out`: lines, or one string split at newlines. */
  stdout?: string | string[];
  /** `.command.err`: lines, or one string split at newlines. */
  stderr?: string | string[];
  /** The CPUs it asks for; default 2. */
  cpus?: number;
  /** The memory it asks for, in bytes; default 4 GiB. */
  memory?: number;
}

export interface RunInit extends ScopedInit {
  id?: string;
  /** Default "SUBMITTED"; a later status is reached by the same steps as `advance`/`finish`. */
  status?: RunStatus;
  /** Default `launch.runName`, else a made-up name as Nextflow's ("happy_curie"). */
  runName?: string;
  launch?: Record<string, unknown>;
  pipelineId?: number;
  labelIds?: number[];
  /**
   * The tasks the run will execute, in order: process names or `{ process, tag }`. Default
   * two tasks, "FASTQC (sample_1)" and "MULTIQC". When any has a `status`, the run and its
   * tasks are taken as seeded (nothing is stepped): a FAILED run with two FAILED tasks, exit
   * statuses 137 and 1, is seeded that way.
   */
  tasks?: (string | TaskInit)[];
  /** Default "emulated-user". */
  userName?: string;
  /** The failure message when `status` is "FAILED". */
  errorMessage?: string;
  /** The run's exit status when it has ended; default 0, or 1 when FAILED. */
  exitStatus?: number;
  /** Default `dateCreated`; `dateCreated` defaults to it. */
  submit?: string | Date;
  /** Default the time it was stepped to RUNNING (`submit` for a run seeded as ended). */
  start?: string | Date;
  /** Default the time it ended (`start` for a run seeded as ended); `duration` follows. */
  complete?: string | Date;
  /** Nextflow's session; default a new one, or the launch's `sessionId` when `resume`. */
  sessionId?: string;
  /** The resolved commit, which a resume reuses; default one made up when the run starts. */
  commitId?: string;
  /** Whether the run resumed an earlier session. Default `launch.resume === true`. */
  resume?: boolean;
  /** How the run ends when advanced (or seeded with a status it must be stepped to). */
  ending?: RunEnding;
  /** How runs relaunched from this one end when advanced. */
  relaunchEnding?: RunEnding;
  /**
   * The run's cost in USD (describe's `cost` and `workflowProgress.cost`); null for a run the
   * service has no cost for (answered null); default derived.
   */
  cost?: number | null;
  /**
   * `workflowProgress` figures as the service names them (`cpuTime` in ms, `memoryRss` in
   * bytes, `cpuEfficiency` in %...); those not given are derived from the tasks.
   */
  progress?: SeededLoad;
}

const DEFAULT_TASKS: TaskInit[] = [{ process: "FASTQC", tag: "sample_1" }, { process: "MULTIQC" }];

export function isActive(run: Run): boolean {
  return ACTIVE.has(run.status);
}

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
function summary(run: Run, now: string): string[] {
  const count = (status: TaskStatus) => run.tasks.filter((t) => t.status === status).length;
  const failed = count("FAILED");
  return [
    "",
    `Completed at: ${now}`,
    `Succeeded   : ${count("COMPLETED")}`,
    ...(failed > 0 ? [`Failed      : ${failed}`] : []),
  ];
}

/** The failures an ending describes, in order; none unless FAILED. */
function failuresOf(ending: RunEnding | undefined): TaskFailure[] {
  if (ending?.status !== "FAILED") return [];
  return ending.failures ?? [ending];
}

/** The indexes of the failures of each run's ending already met. */
const metFailures = new WeakMap<Run, Set<number>>();

/** Whether `failure` is meant for `task` (no task named: the run's last). */
function targets(run: Run, failure: TaskFailure, task: RunTask): boolean {
  if (failure.task === undefined) return task === run.tasks[run.tasks.length - 1];
  return failure.task === task.process || failure.task === task.name;
}

/** The first failure of the run's ending not yet met that is meant for this task. */
function failureAt(run: Run, task: RunTask): TaskFailure | undefined {
  const met = metFailures.get(run);
  return failuresOf(run.ending).find((f, i) => !met?.has(i) && targets(run, f, task));
}

/** Whether a failure not yet met is meant for a task still to run. */
function failuresLeft(run: Run): boolean {
  const met = metFailures.get(run);
  return failuresOf(run.ending).some(
    (f, i) => !met?.has(i) && run.tasks.some((t) => t.status === "NEW" && targets(run, f, t)),
  );
}

/** Fails a task as `failure` says; the run's message is its first failed task's. */
function failTask(run: Run, task: RunTask, failure: TaskFailure, now: string): void {
  const index = failuresOf(run.ending).indexOf(failure);
  if (index >= 0) metFailures.set(run, (metFailures.get(run) ?? new Set()).add(index));
  const exitStatus = failure.exitStatus ?? 1;
  task.status = "FAILED";
  task.exitStatus = exitStatus;
  task.complete = now;
  task.errorMessage =
    failure.errorMessage ??
    `Process \`${task.process}\` terminated with an error exit status (${exitStatus})`;
  task.stderr.push(...(failure.stderr !== undefined ? lines(failure.stderr) : [task.errorMessage]));
  run.log.push(...failureLines(task));
  run.errorMessage ??= task.errorMessage;
  run.exitStatus = 1;
}

/** Seeded figures are numbers, as the service answers them (a cost may be null); `run` names it. */
export function checkFigures({ cost, progress = {} }: RunInit, run: string): void {
  const figures = Object.entries({ ...(cost !== null && { cost }), ...progress });
  for (const [name, value] of figures.filter(([, v]) => v !== undefined)) {
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
      throw new ConfigurationError(
        `${run}: ${name === "cost" ? "its cost (USD) is a number, 0 or more, or null for no cost," : `progress.${name} is a number, 0 or more,`} as the service answers it; got ${JSON.stringify(value)}.`,
      );
    }
  }
}

/** Refuses an ending with both `failures` and a single task's fields, or no failure listed. */
export function checkEnding(endings: Endings | undefined): void {
  if (Array.isArray(endings)) {
    if (endings.length === 0) {
      throw new ConfigurationError(
        'A list of endings gives at least one, e.g. [{ "status": "SUCCEEDED" }, { "status": "FAILED" }].',
      );
    }
    return endings.forEach(checkEnding);
  }
  const ending = endings;
  if (ending?.failures !== undefined) {
    const single = (["task", "exitStatus", "errorMessage", "stderr"] as const).filter(
      (key) => ending[key] !== undefined,
    );
    if (single.length > 0 || ending.failures.length === 0) {
      throw new ConfigurationError(
        `An ending's failures list each failing task (${single.length > 0 ? `move ${single.join(", ")} into one of them` : "give at least one"}), e.g. { "status": "FAILED", "failures": [{ "task": "STAR_ALIGN", "exitStatus": 137 }] }.`,
      );
    }
  }
}

/** An ending at a task the run would not reach adds that task last, so that it happens. */
function addFailingTasks(tasks: RunTask[], ending: RunEnding | undefined): void {
  checkEnding(ending);
  for (const { task: name } of failuresOf(ending)) {
    if (name === undefined || tasks.some((t) => t.process === name || t.name === name)) continue;
    const [, process, tag] = /^(.+) \((.+)\)$/.exec(name) ?? [name, name];
    tasks.push(newTask(tasks.length + 1, { process: process!, ...(tag && { tag }) }));
  }
}

/** A run whose tasks carry statuses: taken as given, with the times and console log they imply. */
function seedAsIs(run: Run, status: RunStatus, init: RunInit): Run {
  run.status = status;
  if (status !== "SUBMITTED") run.start = timestamp(init.start, run.submit);
  if (!isActive(run)) {
    const seededLast = timestamp(init.lastUpdated, run.dateCreated);
    run.complete = timestamp(init.complete, seededLast > run.start! ? seededLast : run.start);
    run.lastUpdated = run.complete;
  }
  if (run.start) {
    run.commitId ??= randomBytes(20).toString("hex");
    run.log.push(...banner(run));
  }
  for (const task of run.tasks) {
    if (task.status === "NEW") continue;
    task.submit ??= run.submit;
    if (task.status !== "SUBMITTED") task.start ??= run.start ?? run.submit;
    if (!["SUBMITTED", "RUNNING"].includes(task.status))
      task.complete ??= run.complete ?? task.start;
    run.log.push(`[${task.hash}] Submitted process > ${task.name}`);
    if (task.status === "COMPLETED" || task.status === "CACHED") {
      run.log.push(`[${task.hash}] Completed process > ${task.name}`);
    } else if (task.status === "FAILED") run.log.push(...failureLines(task));
  }
  if (isActive(run)) return run;
  const failed = run.tasks.find((t) => t.status === "FAILED");
  if (status === "FAILED") {
    run.errorMessage = init.errorMessage ?? failed?.errorMessage ?? "Emulated failure";
  }
  run.exitStatus = init.exitStatus ?? (status === "FAILED" ? 1 : 0);
  run.log.push(...summary(run, run.complete!));
  return run;
}

function banner(run: Run): string[] {
  const revision = String(run.launch.revision ?? "main");
  return [
    "N E X T F L O W  ~  version 24.10.0",
    `Launching \`${run.pipeline}\` [${run.runName}] DSL2 - revision: ${revision}`,
    "",
  ];
}

function failureLines(task: RunTask): string[] {
  return [
    `[${task.hash}] NOTE: Process \`${task.name}\` terminated with an error exit status (${task.exitStatus ?? 1})`,
    `ERROR ~ Error executing process > '${task.name}'`,
  ];
}

/**
 * A run stepped at seeding happened when the seed says, not now: it started at `start`
 * (default `submit`) and ended at `complete` (default `lastUpdated`); its tasks within.
 */
function applySeededTimes(run: Run, init: RunInit): void {
  if (run.start === undefined) return;
  run.start = timestamp(init.start, run.submit);
  if (run.complete !== undefined) {
    const seededLast = timestamp(init.lastUpdated, run.dateCreated);
    run.complete = timestamp(init.complete, seededLast > run.start ? seededLast : run.start);
  }
  run.lastUpdated = run.complete ?? run.start;
  for (const task of run.tasks) {
    if (task.submit) task.submit = clamp(task.submit, run);
    if (task.start) task.start = clamp(task.start, run);
    if (task.complete) task.complete = clamp(task.complete, run);
  }
  if (init.exitStatus !== undefined && !isActive(run)) run.exitStatus = init.exitStatus;
}

/** A stepped task's time within the run's seeded start and end. */
function clamp(time: string, run: Run): string {
  if (run.start && time < run.start) return run.start;
  if (run.complete && time > run.complete) return run.complete;
  return time;
}

/** Lines of a log: an array as is, a string split at newlines (one final newline ignored). */
export function lines(text: string | string[]): string[] {
  return typeof text === "string" ? text.replace(/\n$/, "").split("\n") : text;
}

const ADJECTIVES = [
  "admiring",
  "agitated",
  "big",
  "boring",
  "clever",
  "curious",
  "elegant",
  "focused",
  "friendly",
  "gloomy",
  "happy",
  "jolly",
  "modest",
  "nostalgic",
  "pensive",
  "sharp",
  "sleepy",
  "tender",
  "trusting",
  "zen",
];
const SCIENTISTS = [
  "babbage",
  "curie",
  "darwin",
  "einstein",
  "franklin",
  "galileo",
  "hopper",
  "hypatia",
  "kepler",
  "lovelace",
  "mendel",
  "newton",
  "noether",
  "pasteur",
  "ramanujan",
  "sanger",
  "shannon",
  "tesla",
  "turing",
  "wilson",
];

/** A run name as Nextflow makes one up ("happy_curie"), unique within this emulator. */
function runName(n: number): string {
  const name = `${ADJECTIVES[(n - 1) % ADJECTIVES.length]}_${SCIENTISTS[Math.floor((n - 1) / ADJECTIVES.length) % SCIENTISTS.length]}`;
  return n > ADJECTIVES.length * SCIENTISTS.length ? `${name}_${n}` : name;
}

function taskName(init: TaskInit): string {
  return init.tag ? `${init.process} (${init.tag})` : init.process;
}

/** The seeded output of tasks not yet started. */
const pendingOutput = new WeakMap<RunTask, { stdout: string[]; stderr: string[] }>();

function newTask(taskId: number, init: TaskInit): RunTask {
  const hex = randomBytes(4).toString("hex");
  const status = init.status ?? "NEW";
  const task: RunTask = {
    taskId,
    process: init.process,
    name: taskName(init),
    ...(init.tag !== undefined && { tag: init.tag }),
    hash: `${hex.slice(0, 2)}/${hex.slice(2)}`,
    status,
    stdout: [],
    stderr: [],
    cpus: init.cpus ?? DEFAULT_CPUS,
    memory: init.memory ?? DEFAULT_MEMORY,
  };
  const output = { stdout: lines(init.stdout ?? []), stderr: lines(init.stderr ?? []) };
  // A task still to run shows its seeded output once it starts.
  if (status !== "NEW") Object.assign(task, output);
  else if (init.stdout !== undefined || init.stderr !== undefined) pendingOutput.set(task, output);
  if (init.submit !== undefined) task.submit = timestamp(init.submit);
  if (init.start !== undefined) task.start = timestamp(init.start);
  if (init.complete !== undefined) task.complete = timestamp(init.complete);
  if (status === "FAILED") {
    task.exitStatus = init.exitStatus ?? 1;
    task.errorMessage =
      init.errorMessage ??
      `Process \`${init.process}\` terminated with an error exit status (${task.exitStatus})`;
    if (init.stderr === undefined) task.stderr.push(task.errorMessage);
  } else if (init.exitStatus !== undefined) task.exitStatus = init.exitStatus;
  else if (status === "COMPLETED") task.exitStatus = 0;
  if (init.errorMessage !== undefined) task.errorMessage = init.errorMessage;
  return task;
}

function completeTask(run: Run, task: RunTask, now: string): void {
  task.status = "COMPLETED";
  task.exitStatus = 0;
  task.complete = now;
  if (!pendingOutput.has(task)) task.stdout.push(`${task.name} done`);
  run.log.push(`[${task.hash}] Completed process > ${task.name}`);
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === "string" && value !== "" ? value : fallback;
}
