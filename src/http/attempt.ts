/**
 * One attempt of a call: the request sent (redirects included), its response read, within the
 * attempt's timeout and the caller's signal. The attempt owns what it starts until the body has
 * been read: its timer and its listener on the caller's signal are released when it ends, and a
 * body left unread is cancelled (closing the connection). A body handed to the caller as a
 * stream stays bounded by the timer until the caller has read or cancelled it.
 */
import type { FetchFunction } from "./request.js";
import { errorFromFailure } from "./error-from-failure.js";
import { SeqeraApiError, type CallInfo } from "../errors/seqera-api-error.js";
import type { Redact } from "../core/redact.js";
import { fetchFollowingRedirects } from "./redirects.js";
import type { HandOver } from "./body.js";
import type { PreparedRequest } from "./request.js";

export interface AttemptSetup {
  fetch: FetchFunction;
  /** 0 (or beyond what a timer can hold): none. */
  timeoutMs: number;
  signal: AbortSignal | undefined;
  call: CallInfo;
  redact: Redact;
  /** The first response's status arrived (the rate limiter's permit ends here). */
  onResponse(status: number): void;
}

/**
 * Runs one attempt; `read` is the response step. Rejects with the caller's abort reason when
 * their signal fired, a SeqeraApiError from `read` or the redirects as it is, and otherwise
 * with the TimeoutError, ConnectionError or BodyReadError for where the attempt broke.
 */
export async function attempt<T>(
  request: PreparedRequest,
  setup: AttemptSetup,
  read: (response: Response, handOver: HandOver) => Promise<T>,
): Promise<T> {
  const { signal, timeoutMs } = setup;
  signal?.throwIfAborted();
  const controller = new AbortController();
  let timedOut = false;
  let status: number | undefined;
  const timer =
    timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS
      ? setTimeout(() => {
          timedOut = true;
          release();
          controller.abort();
        }, timeoutMs)
      : undefined;
  // Never keeps the process alive on its own.
  timer?.unref();
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener("abort", onAbort, { once: true });
  function release() {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
  const failure = (error: unknown): unknown => {
    if (signal?.aborted) return signal.reason;
    if (error instanceof SeqeraApiError) return error;
    return errorFromFailure(error, setup.call, { status, timedOut, timeoutMs });
  };
  let handedOver = false;
  const handOver: HandOver = (body) => {
    handedOver = true;
    return guarded(body, release, failure);
  };
  try {
    const response = await fetchFollowingRedirects(request, {
      fetch: setup.fetch,
      signal: controller.signal,
      call: setup.call,
      redact: setup.redact,
      onFirstResponse: setup.onResponse,
    });
    status = response.status;
    return await read(response, handOver);
  } catch (error) {
    // Whatever is still open (an unread body, the connection) goes now.
    release();
    controller.abort();
    throw failure(error);
  } finally {
    if (!handedOver) release();
  }
}

/** setTimeout fires after 1 ms for longer delays (Infinity included): beyond this, no timeout. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The body as the caller gets it: the attempt ends when it is read to the end, fails or is cancelled. */
function guarded(
  body: ReadableStream<Uint8Array>,
  release: () => void,
  failure: (error: unknown) => unknown,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            release();
            controller.close();
          } else {
            controller.enqueue(value);
          }
        } catch (error) {
          release();
          controller.error(failure(error));
        }
      },
      cancel(reason) {
        release();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
