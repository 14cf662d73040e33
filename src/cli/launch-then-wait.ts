import type { LaunchResult } from "../index.js";
import type { CliContext } from "./context.js";
import { InterruptedError } from "../errors/cli-errors.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { writeBody } from "./output.js";
import type { Session } from "./session.js";
import { waitInSession, type LastSeen } from "./wait-command.js";

/**
 * What `launch` (and `relaunch`) do once their request is ready: launch, shielded from a first
 * SIGINT/SIGTERM so that the answer is not lost, and say on stderr which labels it created;
 * then with `wait` wait for the run. Prints `{"workflowId", "createdLabels", "run"}` (run when
 * waited); once the run exists its workflowId (and the run as last seen) is printed whatever
 * happens next (a failed run, --timeout, an interrupt, an error while waiting), then the failure
 * is thrown.
 */
export async function launchThenWait(
  session: Session,
  wait: boolean,
  context: CliContext,
  launch: (signal: AbortSignal) => Promise<LaunchResult>,
): Promise<ExitCode> {
  const { RunFailedError } = await import("../index.js");
  const { scope } = session;
  const launched = await scope.shielded(launch);
  const { workflowId, createdLabels } = launched;
  // A relaunch says whether it resumed.
  const resumed = launched.resumed === undefined ? {} : { resumed: launched.resumed };
  if (createdLabels.length > 0) {
    const names = createdLabels.map((name) => JSON.stringify(name)).join(", ");
    context.stderr.write(`seqera-api: created the missing labels ${names}\n`);
  }
  const seen: LastSeen = {};
  try {
    scope.signal.throwIfAborted();
    if (!wait) {
      await writeBody(context.stdout, { workflowId, createdLabels, ...resumed });
      return EXIT.ok;
    }
    const run = await waitInSession(session, workflowId, context, seen);
    await writeBody(context.stdout, { workflowId, createdLabels, ...resumed, run });
    return EXIT.ok;
  } catch (error) {
    const run = error instanceof RunFailedError ? error.run : seen.run;
    await writeBody(context.stdout, { workflowId, createdLabels, ...resumed, run });
    const reason: unknown = scope.signal.reason;
    if (reason instanceof InterruptedError) {
      throw new InterruptedError(
        reason.signal,
        `Interrupted by ${reason.signal} after launching run ${workflowId}, which goes on; follow it with seqera-api wait ${workflowId}.`,
      );
    }
    throw error;
  }
}
