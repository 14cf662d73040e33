import type { Run } from "../automation/schema.js";
import type { CliContext } from "./context.js";
import { DeadlineError } from "./cli-errors.js";
import { formatMs } from "./duration.js";
import type { OptionValues } from "./command-line.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { writeBody, type Streams } from "./output.js";
import { progressOn } from "./progress.js";
import { withSession, type Session } from "./session.js";
import { singleArgument } from "./single-argument.js";

/** `seqera-api wait <workflowId>`: until the run ends; prints the run; exit 0, 1 or 3. */
export async function waitCommand(
  args: string[],
  values: OptionValues,
  context: CliContext,
): Promise<ExitCode> {
  const workflowId = singleArgument(args, "Usage: seqera-api wait <workflowId> [--timeout 30m]");
  const { RunFailedError } = await import("../index.js");
  return withSession(`wait ${workflowId}`, values, context, async (session) => {
    try {
      await writeBody(context.stdout, await waitInSession(session, workflowId, context));
      return EXIT.ok;
    } catch (error) {
      if (error instanceof RunFailedError) await writeBody(context.stdout, error.run);
      throw error;
    }
  });
}

/**
 * waitForRun within the command's scope (the workspace lookup and the failed-task listing too),
 * showing the status on a terminal; past --timeout, a WaitTimeoutError naming the last status.
 */
export async function waitInSession(
  { client, scope, timeoutMs, pollIntervalMs }: Session,
  workflowId: string,
  context: CliContext,
): Promise<Run> {
  const { waitForRun, WaitTimeoutError } = await import("../index.js");
  const { TERMINAL_RUN_STATUSES } = await import("../automation/runs.js");
  const status = statusReporter(context.stderr);
  scope.explainDeadline(() => {
    const last = status.last()?.status ?? undefined;
    // The run ended: what ran out of time is the listing of its failed tasks.
    if (last && TERMINAL_RUN_STATUSES.includes(last)) {
      return new DeadlineError(
        `Run ${workflowId} ended ${last}, but listing its failed tasks did not finish within --timeout ${formatMs(timeoutMs!)}.`,
      );
    }
    return new WaitTimeoutError("run", workflowId, timeoutMs!, last);
  });
  try {
    return await waitForRun(client, workflowId, {
      pollIntervalMs,
      onStatus: status.update,
      signal: scope.signal,
    });
  } finally {
    status.done();
  }
}

/** The run's status on a terminal's stderr while waiting ("run 4Bi5xBK6E2Nbhj: RUNNING, 12s"). */
export function statusReporter(stderr: Streams["stderr"]) {
  const progress = progressOn(stderr);
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  let last: Run | undefined;
  const draw = () => {
    const seconds = Math.round((Date.now() - started) / 1000);
    if (last) progress.update(`run ${last.id ?? ""}: ${last.status ?? "?"}, ${seconds}s`);
  };
  return {
    update: (run: Run) => {
      last = run;
      draw();
      // Keep the clock moving between polls; unref'd, so it never holds the process.
      timer ??= setInterval(draw, 1000).unref();
    },
    /** The run as last seen. */
    last: () => last,
    done: () => {
      clearInterval(timer);
      progress.done();
    },
  };
}
