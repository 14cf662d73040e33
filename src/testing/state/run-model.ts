/** A run of the emulator as it is kept: its status, tasks, ending and what was seeded. */
import type { RunStatus } from "../../schema/types.js";
import type { ScopedInit } from "./scoped.js";
import type { Entity } from "./store.js";
import type { SeededLoad } from "./run-figures.js";

/** As the release names them (`WorkflowStatus`). */
export type { RunStatus };
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

export function isActive(run: Run): boolean {
  return ACTIVE.has(run.status);
}
