import type { CliContext } from "./context.js";
import { InterruptedError } from "./cli-errors.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { writeBody } from "./output.js";
import type { Session } from "./session.js";
import { waitInSession } from "./wait-command.js";

/**
 * What `launch` (and `relaunch`) do once their request is ready: launch, shielded from a first
 * SIGINT/SIGTERM so that the answer is not lost, then with `wait` wait for the run. Prints
 * `{"workflowId", "run"}` (run when waited); once the run exists its workflowId is printed
 * whatever happens next (a failed run, --timeout, an interrupt, an error while waiting), then
 * the failure is thrown.
 */
export async function launchThenWait(
  session: Session,
  wait: boolean,
  context: CliContext,
  launch: (signal: AbortSignal) => Promise<{ workflowId: string }>,
): Promise<ExitCode> {
  const { RunFailedError } = await import("../index.js");
  const { scope } = session;
  const { workflowId } = await scope.shielded(launch);
  try {
    scope.signal.throwIfAborted();
    if (!wait) {
      await writeBody(context.stdout, { workflowId });
      return EXIT.ok;
    }
    const run = await waitInSession(session, workflowId, context);
    await writeBody(context.stdout, { workflowId, run });
    return EXIT.ok;
  } catch (error) {
    const run = error instanceof RunFailedError ? error.run : undefined;
    await writeBody(context.stdout, { workflowId, run });
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
