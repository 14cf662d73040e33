/**
 * One step of the GitHub Action: launch (or relaunch) a run, optionally wait for it and follow
 * its log, then tell the job: outputs, a summary, annotations, and the step's exit code.
 */
import type { LaunchResult, Run, SeqeraClient, Task } from "../index.js";
import { DeadlineError, InterruptedError } from "../errors/cli-errors.js";
import { clientOptions } from "../cli/client-options.js";
import { withCommandScope, type CommandScope } from "../cli/command-scope.js";
import type { CliContext } from "../cli/context.js";
import { formatMs } from "../cli/duration.js";
import { EXIT, type ExitCode } from "../cli/exit-codes.js";
import { createRedactor } from "../core/redact.js";
import { InputError, readInputs, type ActionInputs } from "./inputs.js";
import { failedTaskTails, runSummary, type RunReport } from "./summary.js";
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
    annotate(io, "error", `${TITLE}: bad input`, `${error.message} Nothing was launched.`);
    setOutputs(io, { exitCode: String(EXIT.usage) });
    return EXIT.usage;
  }
  for (const secret of inputs.secrets) mask(io, secret);
  const { createSeqeraClient } = await import("../index.js");
  // As the CLI's client (Redis, proxies, plain http allowed), the token from its input too.
  const client = createSeqeraClient(
    clientOptions(
      { url: inputs.endpoint, workspace: inputs.workspace },
      { ...io.env, TOWER_ACCESS_TOKEN: inputs.token },
      io.stderr,
    ),
  );
  const step = new Step(io, inputs, client);
  try {
    return await step.run();
  } finally {
    await client.close();
  }
}

/** The launch's answer, and the run's web address once known. */
type Launched = LaunchResult & { url?: string };

class Step {
  readonly #redact: (text: string) => string;
  #launched: Launched | undefined;
  /** The run's workspace id, once its names were looked up for the URL. */
  #workspaceId: string | undefined;
  readonly #started = Date.now();

  constructor(
    readonly io: ActionIo,
    readonly inputs: ActionInputs,
    readonly client: SeqeraClient,
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
        const launched: Launched = await scope.shielded((signal) => this.#launch(signal));
        this.#launched = launched;
        launched.url = await this.#runUrl(launched.workflowId, scope.signal);
        setOutputs(io, {
          workflowId: launched.workflowId,
          workflowUrl: launched.url,
          workspaceId: this.#workspaceId,
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
   * The run's page in the web interface, as tw builds it: the API's host without `api.` and its
   * path without `/api`, then the workspace's names (or the user's, for a personal run). Only
   * the names are asked of the endpoint; a failure leaves the URL out, the run goes on.
   */
  async #runUrl(workflowId: string, signal: AbortSignal): Promise<string | undefined> {
    const { client, inputs } = this;
    const { find } = await import("../index.js");
    const web = new URL(client.config.baseUrl);
    web.hostname = web.hostname.replace(/^api\./, "");
    const root = `${web.origin}${web.pathname.replace(/\/+$/, "").replace(/\/api$/, "")}`;
    const part = encodeURIComponent;
    try {
      if (inputs.workspace !== undefined) {
        const found = await find.workspace(client, inputs.workspace, { signal });
        this.#workspaceId = String(found.workspaceId);
        return `${root}/orgs/${part(found.orgName)}/workspaces/${part(found.workspaceName)}/watch/${part(workflowId)}`;
      }
      const { user } = await client.GET("/user-info", { signal });
      return `${root}/user/${part(user?.userName ?? "")}/watch/${part(workflowId)}`;
    } catch (error) {
      if (signal.aborted) throw error;
      annotate(this.io, "warning", TITLE, this.#message(error, "The run's web address"));
      return undefined;
    }
  }

  async #waitForEnd(scope: CommandScope, workflowId: string): Promise<ExitCode> {
    const { client, inputs, io } = this;
    const { followRunLog, waitForRun, WaitTimeoutError } = await import("../index.js");
    const { pollIntervalMs } = inputs;
    let last: Run | undefined;
    scope.explainDeadline(
      () => new WaitTimeoutError("run", workflowId, inputs.timeoutMs!, last?.status ?? undefined),
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
    const run = await waitForRun(client, workflowId, {
      pollIntervalMs,
      signal: scope.signal,
      onStatus: (seen) => {
        last = seen;
        io.log(`Run ${workflowId}: ${seen.status ?? "?"}`);
      },
    });
    return this.#finish({ status: run.status ?? undefined, run }, EXIT.ok);
  }

  /** What went wrong, told to the job; the run cancelled first when asked and still going. */
  async #failed(error: unknown): Promise<ExitCode> {
    const { RunFailedError, WaitTimeoutError } = await import("../index.js");
    const { exitCodeFor } = await import("../cli/report-error.js");
    const code = exitCodeFor(error);
    const workflowId = this.#launched?.workflowId;
    if (error instanceof RunFailedError) {
      const tasks = await failedTaskTails(this.client, error.workflowId, error.failedTasks);
      const failed = this.inputs.failOnRunFailure;
      const report = { status: error.status, run: error.run, tasks };
      annotate(this.io, failed ? "error" : "warning", TITLE, this.#redact(error.message));
      for (const task of tasks.slice(0, ANNOTATED_TASKS)) {
        const stderr = this.#redact(task.stderr.join("\n"));
        annotate(this.io, failed ? "error" : "warning", taskTitle(task.task), stderr);
      }
      this.#finish(report, code);
      return failed ? code : EXIT.ok;
    }
    const stopped =
      error instanceof InterruptedError ||
      error instanceof DeadlineError ||
      error instanceof WaitTimeoutError;
    if (workflowId === undefined) {
      annotate(this.io, "error", TITLE, this.#message(error, "Nothing was launched"));
      setOutputs(this.io, { exitCode: String(code) });
      return code;
    }
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
    annotate(this.io, "error", TITLE, note);
    this.#finish({ status, note }, code);
    return code;
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
        workspaceId: this.#workspaceId,
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
