import type { CliContext } from "./context.js";
import { DeadlineError, InterruptedError, type Interrupt } from "../errors/cli-errors.js";
import { formatMs } from "./duration.js";

/** One command's deadline (--timeout) and its interrupts (SIGINT/SIGTERM), as one signal. */
export interface CommandScope {
  /**
   * Aborts at the deadline (reason: DeadlineError) or on an interrupt (InterruptedError);
   * every call and helper of the command gets it, so nothing runs past either.
   */
  readonly signal: AbortSignal;
  /**
   * The error the deadline aborts with, from now on; default a DeadlineError naming the
   * command. A step that knows more says so (a wait: the run's last status).
   */
  explainDeadline(explain: () => Error): void;
  /**
   * Runs a step that creates something on the service (a launch), so that its answer is not
   * lost: a first interrupt waits for it to end (`signal` aborts then), the deadline or a second
   * interrupt aborts it.
   */
  shielded<T>(task: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** An interrupt came (put off or not), or the deadline passed: start nothing new. */
  readonly stopping: boolean;
}

/**
 * Runs a command's body in a scope; a failure once the scope aborted is its reason (the
 * DeadlineError naming `what`, or the InterruptedError). The timer and the signal handlers
 * end with it.
 */
export async function withCommandScope<T>(
  what: string,
  timeoutMs: number | undefined,
  context: Pick<CliContext, "interrupts" | "stderr">,
  body: (scope: CommandScope) => Promise<T>,
): Promise<T> {
  // `hard` aborts everything, shielded steps too; `soft` is what the command's calls get.
  const hard = new AbortController();
  const soft = new AbortController();
  const forward = () => soft.abort(hard.signal.reason);
  hard.signal.addEventListener("abort", forward, { once: true });
  let explain = (): Error =>
    new DeadlineError(`${what} did not finish within --timeout ${formatMs(timeoutMs!)}.`);
  const timer =
    timeoutMs === undefined ? undefined : setTimeout(() => hard.abort(explain()), timeoutMs);
  let shields = 0;
  let deferred: InterruptedError | undefined;
  const unsubscribe = context.interrupts?.((signal: Interrupt) => {
    if (shields > 0 && !deferred && !hard.signal.aborted) {
      deferred = new InterruptedError(signal);
      context.stderr.write(
        `seqera-api: ${signal}: finishing the launch request so that its workflowId is not lost; send ${signal} again to stop at once.\n`,
      );
      return "deferred";
    }
    hard.abort(deferred ?? new InterruptedError(signal));
    return "stopping";
  });
  const scope: CommandScope = {
    signal: soft.signal,
    get stopping() {
      return deferred !== undefined || hard.signal.aborted;
    },
    explainDeadline(explainer) {
      explain = explainer;
    },
    async shielded(task) {
      shields++;
      try {
        const result = await task(hard.signal);
        // Put off until now; a step that failed reports its own error instead.
        if (shields === 1 && deferred) soft.abort(deferred);
        return result;
      } finally {
        shields--;
      }
    },
  };
  try {
    return await body(scope);
  } catch (error) {
    // A step may have told the stop in its own terms (a launch's workflowId) already.
    const told = error instanceof InterruptedError || error instanceof DeadlineError;
    throw soft.signal.aborted && !told ? soft.signal.reason : error;
  } finally {
    clearTimeout(timer);
    hard.signal.removeEventListener("abort", forward);
    unsubscribe?.();
  }
}
