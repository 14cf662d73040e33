/** A run's tasks, its ending's failures, its console lines and its seeded times. */
import { ConfigurationError } from "../../errors/configuration-error.js";
import { randomBytes } from "node:crypto";
import { timestamp } from "./store.js";
import { DEFAULT_CPUS, DEFAULT_MEMORY } from "./run-figures.js";
import {
  isActive,
  type Endings,
  type Run,
  type RunEnding,
  type RunInit,
  type RunStatus,
  type RunTask,
  type TaskFailure,
  type TaskInit,
  type TaskStatus,
} from "./run-model.js";

export function summary(run: Run, now: string): string[] {
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
export function failuresOf(ending: RunEnding | undefined): TaskFailure[] {
  if (ending?.status !== "FAILED") return [];
  return ending.failures ?? [ending];
}

/** The indexes of the failures of each run's ending already met. */
export const metFailures = new WeakMap<Run, Set<number>>();

/** Whether `failure` is meant for `task` (no task named: the run's last). */
function targets(run: Run, failure: TaskFailure, task: RunTask): boolean {
  if (failure.task === undefined) return task === run.tasks[run.tasks.length - 1];
  return failure.task === task.process || failure.task === task.name;
}

/** The first failure of the run's ending not yet met that is meant for this task. */
export function failureAt(run: Run, task: RunTask): TaskFailure | undefined {
  const met = metFailures.get(run);
  return failuresOf(run.ending).find((f, i) => !met?.has(i) && targets(run, f, task));
}

/** Whether a failure not yet met is meant for a task still to run. */
export function failuresLeft(run: Run): boolean {
  const met = metFailures.get(run);
  return failuresOf(run.ending).some(
    (f, i) => !met?.has(i) && run.tasks.some((t) => t.status === "NEW" && targets(run, f, t)),
  );
}

/** Fails a task as `failure` says; the run's message is its first failed task's. */
export function failTask(run: Run, task: RunTask, failure: TaskFailure, now: string): void {
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
export function addFailingTasks(tasks: RunTask[], ending: RunEnding | undefined): void {
  checkEnding(ending);
  for (const { task: name } of failuresOf(ending)) {
    if (name === undefined || tasks.some((t) => t.process === name || t.name === name)) continue;
    const [, process, tag] = /^(.+) \((.+)\)$/.exec(name) ?? [name, name];
    tasks.push(newTask(tasks.length + 1, { process: process!, ...(tag && { tag }) }));
  }
}

/** A run whose tasks carry statuses: taken as given, with the times and console log they imply. */
export function seedAsIs(run: Run, status: RunStatus, init: RunInit): Run {
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

export function banner(run: Run): string[] {
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
export function applySeededTimes(run: Run, init: RunInit): void {
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
export function runName(n: number): string {
  const name = `${ADJECTIVES[(n - 1) % ADJECTIVES.length]}_${SCIENTISTS[Math.floor((n - 1) / ADJECTIVES.length) % SCIENTISTS.length]}`;
  return n > ADJECTIVES.length * SCIENTISTS.length ? `${name}_${n}` : name;
}

function taskName(init: TaskInit): string {
  return init.tag ? `${init.process} (${init.tag})` : init.process;
}

/** The seeded output of tasks not yet started. */
export const pendingOutput = new WeakMap<RunTask, { stdout: string[]; stderr: string[] }>();

export function newTask(taskId: number, init: TaskInit): RunTask {
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

export function completeTask(run: Run, task: RunTask, now: string): void {
  task.status = "COMPLETED";
  task.exitStatus = 0;
  task.complete = now;
  if (!pendingOutput.has(task)) task.stdout.push(`${task.name} done`);
  run.log.push(`[${task.hash}] Completed process > ${task.name}`);
}

export function stringOr(value: unknown, fallback: string): string {
  return typeof value === "string" && value !== "" ? value : fallback;
}
