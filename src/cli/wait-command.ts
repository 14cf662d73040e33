import type { Run } from "../schema/types.js";
import type { CliContext } from "./context.js";
import { DeadlineError } from "../errors/cli-errors.js";
import { formatMs } from "./duration.js";
import type { OptionValues } from "./options.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { writeBody, type Streams } from "./output.js";
import { progressOn } from "./progress.js";
import { withSession, type Session } from "./session.js";
import { singleArgument } from "./single-argument.js";

/**
 * `seqera-api wait <workflowId>`: until the run ends; prints the run; exit 0, 1 or 3. Past
 * --timeout (exit 3) it prints the run as last seen, so that a script reads its last status.
 */
export async function waitCommand(
  args: string[],
  values: OptionValues,
  context: CliContext,
): Promise<ExitCode> {
  const workflowId = singleArgument(args, "Usage: seqera-api wait <workflowId> [--timeout 30m]");
  const { RunFailedError } = await import("../index.js");
  return withSession(`wait ${workflowId}`, values, context, async (session) => {
    const seen: LastSeen = {};
    try {
      await writeBody(context.stdout, await waitInSession(session, workflowId, context, seen));
      return EXIT.ok;
    } catch (error) {
      const run = error instanceof RunFailedError ? error.run : seen.run;
      if (run) await writeBody(context.stdout, run);
      throw error;
    }
  });
}

/** The run as a wait last saw it, for the output of a wait that did not end. */
export interface LastSeen {
  run?: Run;
}

/**
 * waitForRun within the command's scope (the workspace lookup and the failed-task listing too),
 * showing the status on a terminal; past --timeout, a WaitTimeoutError naming the last status.
 * `seen.run` is the run as last seen, whatever happens.
 */
export async function waitInSession(
  { client, scope, timeoutMs, pollIntervalMs }: Session,
  workflowId: string,
  context: CliContext,
  seen: LastSeen = {},
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
      onStatus: (run) => {
        seen.run = run;
        status.update(run);
      },
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
