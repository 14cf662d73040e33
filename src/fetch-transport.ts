import type { FetchFunction } from "./config.js";
import { errorFromFailure } from "./errors/from-failure.js";
import type { Transport } from "./transport.js";

/**
 * The innermost transport: one attempt over fetch, bounded by the attempt's timeout (which keeps
 * running while the body is read, until releaseTimeout) and by the caller's signal. It throws
 * TimeoutError or ConnectionError when no response arrives (the caller's own abort reason when
 * they aborted). Attempts are logged by the layer above (retry, or log when retries are off).
 */
export function createFetchTransport(
  fetchImpl: FetchFunction,
  defaultTimeoutMs: number,
): Transport {
  return async (request, context) => {
    const timeoutMs = context.timeoutMs ?? defaultTimeoutMs;
    const bound =
      timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS
        ? boundedSignal(timeoutMs, context.signal)
        : undefined;
    const signal = bound?.signal ?? context.signal;
    try {
      const response = await (signal ? fetchImpl(request, { signal }) : fetchImpl(request));
      if (bound) bodyReleases.set(response, bound.release);
      return response;
    } catch (error) {
      bound?.release();
      const call = {
        method: context.method,
        path: context.path,
        operationId: context.operationId,
        url: request.url,
      };
      throw errorFromFailure(error, call, context.signal, timeoutMs);
    }
  };
}

/** setTimeout fires after 1 ms for longer delays (Infinity included): beyond this, no timeout. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** What still bounds a response's body (timer, link to the caller's signal), until releaseTimeout. */
const bodyReleases = new WeakMap<Response, () => void>();

/**
 * Stops the attempt's timer once its body has been read. A response nobody releases (a stream
 * handed to the caller, one a retry discarded) keeps its timer until it fires, harmlessly.
 */
export function releaseTimeout(response: Response): void {
  bodyReleases.get(response)?.();
}

/**
 * A signal aborted by a timer or by the caller's signal, whichever comes first. A plain timer
 * rather than AbortSignal.timeout(), which costs ~17 µs per call on Node 20; a listener rather
 * than AbortSignal.any(), which on Node 20 leaves a record on the caller's signal per call (a
 * long-lived signal passed to every call grew without bound). `release` unlinks both.
 */
function boundedSignal(timeoutMs: number, callerSignal: AbortSignal | undefined) {
  const controller = new AbortController();
  const onCallerAbort = () => controller.abort(callerSignal?.reason);
  const release = () => {
    clearTimeout(handle);
    callerSignal?.removeEventListener("abort", onCallerAbort);
  };
  const handle = setTimeout(() => {
    release();
    controller.abort(new DOMException(`timed out after ${timeoutMs} ms`, "TimeoutError"));
  }, timeoutMs);
  // Never keeps the process alive on its own.
  handle.unref();
  if (callerSignal?.aborted) onCallerAbort();
  else callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
  return { signal: controller.signal, release };
}
