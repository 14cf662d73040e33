/**
 * One step of the GitHub Action: launch (or relaunch) a run, optionally wait for it and follow
 * its log, then tell the job: outputs, a summary, annotations, and the step's exit code.
 */
import type { LaunchResult, Run, RunFailedError, SeqeraClient, Task } from "../index.js";
import { DeadlineError, InputError, InterruptedError } from "../errors/cli-errors.js";
import { clientOptions } from "../cli/client-options.js";
import { withCommandScope, type CommandScope } from "../cli/command-scope.js";
import type { CliContext } from "../cli/context.js";
import { formatMs } from "../cli/duration.js";
import { EXIT, type ExitCode } from "../cli/exit-codes.js";
import { createRedactor } from "../core/redact.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { defaultFetch } from "../http/node-fetch.js";
import { proxyFetch } from "../http/proxy.js";
import { readInputs, type ActionInputs } from "./inputs.js";
import { gracefulSignal, LAUNCH_GRACE_MS, watchLaunch, type LaunchWatch } from "./launch-grace.js";
import { runPlace, workspaceNotFound, type RunPlace } from "./run-place.js";
import { notLaunchedSummary, runSummary, type RunReport, type TaskTail } from "./summary.js";
import {
  addSummary,
  annotate,
  mask,
  setOutputs,
  verbatim,
  type StepIo,
} from "./workflow-commands.js";

/** What the step runs with: its log, environment and, on a runner, the process's signals. */
export interface ActionIo extends StepIo, Pick<CliContext, "interrupts" | "stderr"> {}

/**
 * How long the cancel request may take once the job is cancelled: the runner sends SIGTERM
 * 7.5 s after SIGINT (a second signal ends the step at once) and kills it 2.5 s later.
 */
const CANCEL_MS = 5_000;

/** Reading failed tasks' standard error for the summary, at most (within the step's signal). */
const STDERR_MS = 10_000;
/** Lines of each failed task's standard error read. */
const STDERR_LINES = 10;

/** After the step was stopped: the run's address or status, asked within this much. */
const AFTER_STOP_MS = 2_000;

/** A step's page shows its first ten error annotations: the run's, and nine failed tasks'. */
const ANNOTATED_TASKS = 9;

const TITLE = "Seqera run";

/** Runs the step; resolves with its exit code (EXIT's table, as the CLI's). */
export async function runAction(io: ActionIo): Promise<ExitCode> {
  let inputs: ActionInputs;
  try {
    inputs = await readInputs(io.env);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return badInput(io, error.message);
  }
  for (const secret of inputs.secrets) mask(io, secret);
  const { createSeqeraClient } = await import("../index.js");
  const launching: LaunchWatch = { sent: false };
  let client: SeqeraClient;
  try {
    // As the CLI's client (Redis, proxies, plain http allowed), the token from its input too.
    const env = { ...io.env, TOWER_ACCESS_TOKEN: inputs.token };
    const options = clientOptions(
      { url: inputs.endpoint, workspace: inputs.workspace, verbose: inputs.verbose },
      env,
      io.stderr,
    );
    options.fetch = watchLaunch(proxyFetch(env) ?? defaultFetch, launching);
    client = createSeqeraClient(options);
  } catch (error) {
    // The environment's settings the inputs do not cover (a malformed HTTPS_PROXY).
    if (!(error instanceof ConfigurationError)) throw error;
    return badInput(io, error.message);
  }
  const step = new Step(io, inputs, client, launching);
  try {
    return await step.run();
  } finally {
    await client.close();
  }
}

function badInput(io: StepIo, message: string): ExitCode {
  const note = `${message} Nothing was launched.`;
  annotate(io, "error", `${TITLE}: bad input`, note);
  setOutputs(io, { exitCode: String(EXIT.usage) });
  addSummary(io, notLaunchedSummary(note));
  return EXIT.usage;
}

/** The launch's answer, and where the run is shown once known. */
type Launched = LaunchResult & Partial<RunPlace>;

class Step {
  readonly #redact: (text: string) => string;
  #launched: Launched | undefined;
  /** The run as last polled. */
  #last: Run | undefined;
  readonly #started = Date.now();

  constructor(
    readonly io: ActionIo,
    readonly inputs: ActionInputs,
    readonly client: SeqeraClient,
    readonly launching: LaunchWatch,
  ) {
    this.#redact = createRedactor(inputs.token);
  }

  async run(): Promise<ExitCode> {
    const { inputs, io } = this;
    try {
      return await withCommandScope("the step", inputs.timeoutMs, io, async (scope) => {
        scope.explainDeadline(
          () =>
            new DeadlineError(
              `The launch did not finish within the input timeout ${formatMs(inputs.timeoutMs!)}.`,
            ),
        );
        const launched: Launched = await scope.shielded((signal) =>
          this.#launch(gracefulSignal(signal, this.launching, io.log)),
        );
        this.#launched = launched;
        // At once: a later step has the run's id whatever happens next (a cancelled job too).
        setOutputs(io, { workflowId: launched.workflowId });
        await this.#place(launched, scope.signal);
        setOutputs(io, {
          workflowUrl: launched.url,
          workspaceId: launched.workspaceId,
          workspaceRef: launched.workspaceRef,
        });
        io.log(`Launched run ${launched.workflowId}${launched.url ? `: ${launched.url}` : ""}`);
        if (launched.createdLabels.length > 0) {
          io.log(`Created the missing labels ${launched.createdLabels.join(", ")}`);
        }
        scope.signal.throwIfAborted();
        if (!inputs.wait) return this.#finish({ status: "SUBMITTED" }, EXIT.ok);
        return await this.#waitForEnd(scope, launched.workflowId);
      });
    } catch (error) {
      return await this.#failed(error);
    }
  }

  async #launch(signal: AbortSignal): Promise<LaunchResult> {
    const { inputs, client } = this;
    const { launchPipeline, relaunchRun } = await import("../index.js");
    const settings = { ...inputs.settings, signal };
    if (inputs.relaunch === undefined) return launchPipeline(client, inputs.pipeline!, settings);
    return relaunchRun(client, inputs.relaunch, {
      ...settings,
      resume: inputs.resume,
      pipeline: inputs.pipeline,
    });
  }

  /**
   * Where the run is shown (its outputs workflowUrl, workspaceId, workspaceRef): asked within a
   * moment of its own once the step was stopped; a failure leaves them out.
   */
  async #place(launched: Launched, stepSignal: AbortSignal): Promise<void> {
    const signal = stepSignal.aborted ? AbortSignal.timeout(AFTER_STOP_MS) : stepSignal;
    try {
      const place = await runPlace(this.client, this.inputs.workspace, launched.workflowId, signal);
      Object.assign(launched, place);
    } catch (error) {
      if (stepSignal.aborted) return;
      annotate(this.io, "warning", TITLE, this.#message(error, "The run's web address"));
    }
  }

  async #waitForEnd(scope: CommandScope, workflowId: string): Promise<ExitCode> {
    const { client, inputs, io } = this;
    const { followRunLog, waitForRun, RunFailedError, WaitTimeoutError } =
      await import("../index.js");
    const { pollIntervalMs } = inputs;
    scope.explainDeadline(
      () =>
        new WaitTimeoutError("run", workflowId, inputs.timeoutMs!, this.#last?.status ?? undefined),
    );
    if (inputs.followLog) {
      const resume = verbatim(io);
      try {
        for await (const line of followRunLog(client, workflowId, {
          pollIntervalMs,
          signal: scope.signal,
        })) {
          io.log(line);
        }
      } finally {
        resume();
      }
    }
    try {
      const run = await waitForRun(client, workflowId, {
        pollIntervalMs,
        signal: scope.signal,
        ...(inputs.wait === "RUNNING" && { until: ["RUNNING" as const] }),
        onStatus: (seen) => {
          this.#last = seen;
          io.log(`Run ${workflowId}: ${seen.status ?? "?"}`);
        },
      });
      return this.#finish({ status: run.status ?? undefined, run }, EXIT.ok);
    } catch (error) {
      if (!(error instanceof RunFailedError)) throw error;
      return await this.#runFailed(error, scope.signal);
    }
  }

  /**
   * A run that ended FAILED, CANCELLED or UNKNOWN: its failed tasks' last lines of standard
   * error read within the step's deadline and signals and STDERR_MS; tasks whose stderr could
   * not be read in time are listed without it. The step stopped meanwhile exits as stopped.
   */
  async #runFailed(error: RunFailedError, stepSignal: AbortSignal): Promise<ExitCode> {
    const { failedTasks } = await import("../index.js");
    const { exitCodeFor } = await import("../cli/report-error.js");
    let tasks: TaskTail[] = error.failedTasks;
    let note: string | undefined;
    const cap = AbortSignal.timeout(STDERR_MS);
    try {
      tasks = await failedTasks(this.client, error.workflowId, {
        stderrLines: STDERR_LINES,
        signal: AbortSignal.any([stepSignal, cap]),
      });
    } catch (failure) {
      const why = stepSignal.aborted
        ? (stepSignal.reason as Error).message
        : cap.aborted
          ? `not within ${formatMs(STDERR_MS)}`
          : this.#message(failure, "reading it failed");
      note = `The failed tasks' standard error was not read (${why.replace(/\.$/, "")}).`;
    }
    const stopped = stepSignal.reason instanceof InterruptedError;
    const failed = this.inputs.failOnRunFailure;
    const level = failed ? "error" : "warning";
    annotate(this.io, level, TITLE, this.#redact(error.message));
    for (const task of tasks.slice(0, ANNOTATED_TASKS)) {
      const stderr = this.#redact((task.stderr ?? []).join("\n"));
      annotate(this.io, level, taskTitle(task), stderr);
    }
    const code = stopped ? exitCodeFor(stepSignal.reason) : exitCodeFor(error);
    this.#finish({ status: error.status, run: error.run, tasks, note }, code);
    return failed || stopped ? code : EXIT.ok;
  }

  /** What went wrong, told to the job; the run cancelled first when asked and still going. */
  async #failed(error: unknown): Promise<ExitCode> {
    if (this.#launched === undefined) return await this.#notLaunched(error);
    const { WaitTimeoutError } = await import("../index.js");
    const { exitCodeFor } = await import("../cli/report-error.js");
    const code = exitCodeFor(error);
    const { workflowId } = this.#launched;
    const stopped =
      error instanceof InterruptedError ||
      error instanceof DeadlineError ||
      error instanceof WaitTimeoutError;
    let note =
      error instanceof InterruptedError
        ? `Run ${workflowId}: the step was stopped by ${error.signal} (the job was cancelled).`
        : this.#message(error, `Run ${workflowId}`);
    let status: string | undefined;
    if (stopped && this.inputs.cancelRun) {
      status = await this.#cancel(workflowId);
      note += status === "CANCELLED" ? ` The run was cancelled (cancel_run).` : "";
    } else if (stopped) {
      note += ` The run goes on (set cancel_run: true to cancel it when the step stops).`;
    }
    status ??= this.#last?.status ?? (await this.#currentStatus(workflowId));
    annotate(this.io, "error", TITLE, note);
    this.#finish({ status, run: this.#last, note }, code);
    return code;
  }

  /** A failure before any run existed: told in the inputs' terms, with a summary. */
  async #notLaunched(error: unknown): Promise<ExitCode> {
    const { exitCodeFor } = await import("../cli/report-error.js");
    const { inputs } = this;
    const signal = AbortSignal.timeout(AFTER_STOP_MS);
    const told = await workspaceNotFound(this.client, inputs.workspace, error, signal);
    let note = this.#message(told, "Nothing was launched");
    if (error instanceof DeadlineError && this.launching.sent) {
      const named = inputs.settings.runName ? ` (${inputs.settings.runName})` : "";
      note = this.#message(
        error,
        `The launch request got no answer within ${formatMs(LAUNCH_GRACE_MS)} past the timeout: the service may have created the run${named}; look for it in the workspace's runs`,
      );
    }
    const code = exitCodeFor(told);
    annotate(this.io, "error", TITLE, note);
    setOutputs(this.io, { exitCode: String(code) });
    addSummary(this.io, this.#redact(notLaunchedSummary(note)));
    return code;
  }

  /** The run's status now, asked within a moment; undefined when it cannot be told. */
  async #currentStatus(workflowId: string): Promise<string | undefined> {
    try {
      const { workflow } = await this.client.GET("/workflow/{workflowId}", {
        params: { path: { workflowId } },
        signal: AbortSignal.timeout(AFTER_STOP_MS),
      });
      return workflow?.status ?? undefined;
    } catch {
      return undefined;
    }
  }

  /** Cancels the run, within the few seconds a cancelled job has left; its status after. */
  async #cancel(workflowId: string): Promise<string | undefined> {
    const { cancelRun } = await import("../index.js");
    try {
      await cancelRun(this.client, workflowId, { signal: AbortSignal.timeout(CANCEL_MS) });
      this.io.log(`Cancelled run ${workflowId}`);
      return "CANCELLED";
    } catch (error) {
      annotate(this.io, "warning", TITLE, this.#message(error, `Cancelling run ${workflowId}`));
      return undefined;
    }
  }

  /** Outputs and summary for the run as it stands; returns the step's exit code. */
  #finish(report: Omit<RunReport, "workflowId" | "url" | "elapsedMs">, code: ExitCode): ExitCode {
    const launched = this.#launched!;
    const run = report.run;
    const status = report.status ?? run?.status ?? undefined;
    const exitStatus = run?.exitStatus == null ? undefined : String(run.exitStatus);
    setOutputs(this.io, {
      status,
      exitStatus,
      exitCode: String(code),
      json: JSON.stringify({
        workflowId: launched.workflowId,
        workflowUrl: launched.url,
        workspaceId: launched.workspaceId,
        workspaceRef: launched.workspaceRef,
        status,
        exitStatus: run?.exitStatus ?? undefined,
        exitCode: code,
      }),
    });
    const summary = runSummary({
      ...report,
      status,
      workflowId: launched.workflowId,
      url: launched.url,
      elapsedMs: Date.now() - this.#started,
    });
    // The runner's masks may not reach the summary page: the token is taken out here.
    addSummary(this.io, this.#redact(summary));
    return code;
  }

  /** An error as one line, the token never in it. */
  #message(error: unknown, what: string): string {
    const text = error instanceof Error ? error.message : String(error);
    return this.#redact(`${what}: ${text.replace(/\s+/g, " ").trim()}`);
  }
}

function taskTitle(task: Task): string {
  return `Task ${task.name ?? task.taskId ?? "?"} failed (exit ${task.exitStatus ?? task.exit ?? "?"})`;
}
