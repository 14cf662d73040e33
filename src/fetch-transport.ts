import type { FetchFunction } from "./config.js";
import { errorFromFailure } from "./errors/from-failure.js";
import type { CallContext, LogEntry, Transport } from "./transport.js";

/**
 * The innermost transport: one attempt over fetch, bounded by the attempt's timeout (which keeps
 * running while the body is read) and by the caller's signal. It throws TimeoutError or
 * ConnectionError when no response arrives (the caller's own abort reason when they aborted) and
 * logs one entry per attempt.
 */
export function createFetchTransport(
  fetchImpl: FetchFunction,
  defaultTimeoutMs: number,
): Transport {
  return async (request, context) => {
    const timeoutMs = context.timeoutMs ?? defaultTimeoutMs;
    const signal = attemptSignal(context.signal, timeoutMs);
    const started = context.logger ? performance.now() : 0;
    try {
      const response = await (signal ? fetchImpl(request, { signal }) : fetchImpl(request));
      if (context.logger) log(context, started, response.status);
      return response;
    } catch (error) {
      const call = {
        method: context.method,
        path: context.path,
        operationId: context.operationId,
        url: request.url,
      };
      const failure = errorFromFailure(error, call, context.signal, timeoutMs);
      if (context.logger) log(context, started, undefined, failure);
      throw failure;
    }
  };
}

function attemptSignal(
  callSignal: AbortSignal | undefined,
  timeoutMs: number,
): AbortSignal | undefined {
  if (timeoutMs <= 0) return callSignal;
  const timeout = AbortSignal.timeout(timeoutMs);
  return callSignal ? AbortSignal.any([callSignal, timeout]) : timeout;
}

function log(context: CallContext, started: number, status?: number, failure?: unknown): void {
  const entry: LogEntry = {
    method: context.method,
    path: context.path,
    operationId: context.operationId,
    attempt: context.attempt,
    status,
    durationMs: performance.now() - started,
    limiterWaitMs: context.limiterWaitMs,
  };
  if (failure !== undefined)
    entry.error = failure instanceof Error ? failure.message : String(failure);
  try {
    context.logger!(entry);
  } catch {
    // A faulty logger must not turn a successful call into a failed one.
  }
}
