/**
 * One attempt's lifetime: its timeout and the caller's signal, joined into the signal its
 * requests are sent with. The attempt owns what it starts until the body has been read: its
 * timer and its listener on the caller's signal are released when it ends (`release`), and a
 * body handed to the caller as a stream stays bounded by the timer until read or cancelled
 * (`guard`). `failure` names where a failed attempt broke.
 */
import { offAbort, onAbort } from "../core/abort.js";
import { MAX_TIMER_MS } from "../core/time.js";
import { SeqeraApiError, type CallInfo } from "../errors/seqera-api-error.js";
import { errorFromFailure } from "./error-from-failure.js";

export interface Attempt {
  /** Aborts on the caller's signal, on the timeout, and when the attempt fails. */
  readonly signal: AbortSignal;
  /** The error a failed attempt rejects with (the caller's abort reason when theirs fired); aborts what is still open. */
  failure(error: unknown, status: number | undefined): unknown;
  /** A streamed body (of a response with `status`) that ends the attempt when it is read to the end, fails or is cancelled. */
  guard(body: ReadableStream<Uint8Array>, status: number): ReadableStream<Uint8Array>;
  /** Ends the attempt: the timer and the listener go (idempotent). */
  release(): void;
}

/** Starts an attempt; `timeoutMs` 0 (or beyond what a timer can hold) means none. */
export function startAttempt(
  call: CallInfo,
  timeoutMs: number,
  callerSignal: AbortSignal | undefined,
): Attempt {
  callerSignal?.throwIfAborted();
  const controller = new AbortController();
  let timedOut = false;
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
  const abort = () => controller.abort(callerSignal?.reason);
  if (callerSignal) onAbort(callerSignal, abort);
  function release() {
    clearTimeout(timer);
    if (callerSignal) offAbort(callerSignal, abort);
  }
  const failure = (error: unknown, status: number | undefined): unknown => {
    // Whatever is still open (an unread body, the connection) goes now.
    release();
    controller.abort();
    if (callerSignal?.aborted) return callerSignal.reason;
    if (error instanceof SeqeraApiError) return error;
    return errorFromFailure(error, call, { status, timedOut, timeoutMs });
  };
  return {
    signal: controller.signal,
    failure,
    release,
    guard: (body, status) => guarded(body, release, (error) => failure(error, status)),
  };
}

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
