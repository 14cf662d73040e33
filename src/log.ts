import type { CallContext, LogEntry, TransportLayer } from "./transport.js";

/** How an attempt ended: a response's status, or the error that stood for one. */
export type AttemptOutcome = { response: Response } | { error: unknown };

/**
 * Logs one attempt of a call, once it is known whether it will be retried. Its duration leaves
 * out the time it queued at the rate limiter, which is logged apart. Never the token or headers.
 */
export function logAttempt(
  context: CallContext,
  startedMs: number,
  outcome: AttemptOutcome,
  retry?: LogEntry["retry"],
): void {
  if (!context.logger) return;
  const entry: LogEntry = {
    method: context.method,
    path: context.path,
    operationId: context.operationId,
    attempt: context.attempt,
    status: "response" in outcome ? outcome.response.status : undefined,
    durationMs: Math.max(0, performance.now() - startedMs - context.limiterWaitMs),
    limiterWaitMs: context.limiterWaitMs,
  };
  if (retry) entry.retry = retry;
  if ("error" in outcome) {
    entry.error = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
  }
  try {
    context.logger(entry);
  } catch {
    // A faulty logger must not turn a successful call into a failed one.
  }
}

/** Logs single attempts where no retry layer does (retries turned off). */
export const logLayer: TransportLayer = (next) => async (request, context) => {
  const started = performance.now();
  try {
    const response = await next(request, context);
    logAttempt(context, started, { response });
    return response;
  } catch (error) {
    logAttempt(context, started, { error });
    throw error;
  }
};
