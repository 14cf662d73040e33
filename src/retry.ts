/**
 * Retries in the fetch layer. Sits OUTSIDE the rate limiter, so every attempt waits for its
 * own slot again.
 *
 * Contract with the layers below (the client's base transport):
 * - An attempt ends with a Response or a thrown error. Retried statuses: 429 (waits for
 *   `Retry-After`, 0 or absent meaning about a second) and 502/503/504 (backoff, or
 *   `Retry-After` when sent); a `Retry-After` longer than `maxDelayMs` is not waited for, the
 *   response goes back. Any other Response is returned as is.
 * - A thrown error is a connection error, retried, when it (or a `cause` up to three levels
 *   down) has `retryable === true`, or a `code` in CONNECTION_ERROR_CODES (undici's "fetch
 *   failed" TypeError carries e.g. ECONNRESET, ECONNREFUSED or UND_ERR_SOCKET in its cause), or
 *   when it is a per-attempt timeout: `name` "TimeoutError" while the caller's signal is not
 *   aborted. The client's ConnectionError and per-attempt TimeoutError can set
 *   `retryable = true` to be explicit.
 * - Once `context.signal` is aborted (caller's abort or overall timeout), nothing is retried:
 *   the error is rethrown at once, and a wait between attempts ends at once with the signal's
 *   reason.
 * - Only GET, HEAD, OPTIONS, PUT and DELETE are retried; POST and PATCH only when
 *   `context.retryUnsafe` is set for that call. Without it they are sent exactly once.
 * - When attempts or time run out, the last Response is returned (e.g. 429 → the client's
 *   RateLimitError) or the last error rethrown.
 * - Each attempt sends its own clone of a Request with a body (a body is read once);
 *   `context.attempt` counts attempts from 1; every attempt is logged once through
 *   `context.logger`, a retried one with `retry: { reason, delayMs }`.
 */
import { backoffDelay, retryAfterMs, sleep } from "./backoff.js";
import { logAttempt, logLayer, type AttemptOutcome } from "./log.js";
import type { CallContext, Transport, TransportLayer } from "./transport.js";

export interface RetryOptions {
  /** Attempts per call, the first included. Default 5. */
  maxAttempts?: number;
  /** No retry starts after this long since the call began. Default 60,000 ms. */
  maxElapsedMs?: number;
  /** Backoff before the first retry (randomised between half and all of it). Default 300 ms. */
  baseDelayMs?: number;
  /**
   * Cap on one backoff delay. A Retry-After asking for longer is not waited for: the response
   * goes back to the caller. Default 10,000 ms.
   */
  maxDelayMs?: number;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);
const RETRIED_STATUSES = new Set([429, 502, 503, 504]);
const CONNECTION_ERROR_CODES: ReadonlySet<string> = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
]);

export function retryLayer(options: RetryOptions = {}): TransportLayer {
  const maxAttempts = options.maxAttempts ?? 5;
  const maxElapsedMs = options.maxElapsedMs ?? 60_000;
  const baseDelayMs = options.baseDelayMs ?? 300;
  const maxDelayMs = options.maxDelayMs ?? 10_000;

  return (next: Transport): Transport => {
    const once = logLayer(next);
    return async (request, context) => {
      if (maxAttempts <= 1 || !(SAFE_METHODS.has(context.method) || context.retryUnsafe)) {
        return once(request, context);
      }
      const started = performance.now();
      for (let attempt = 1; ; attempt++) {
        context.attempt = attempt;
        const attemptStarted = attempt === 1 ? started : performance.now();
        let outcome: AttemptOutcome;
        try {
          // A body can be read once: each attempt gets its own copy. Without one, no copy needed.
          const attemptRequest = request.body === null ? request : request.clone();
          const response = await next(attemptRequest, context);
          // The common case, kept cheap: an answer that is not retried.
          if (!RETRIED_STATUSES.has(response.status)) {
            if (context.logger) logAttempt(context, attemptStarted, { response });
            return response;
          }
          outcome = { response };
        } catch (error) {
          outcome = { error };
        }
        const decision = retryDecision(outcome, attempt, baseDelayMs, maxDelayMs, context);
        const elapsed = performance.now() - started;
        if (
          decision === undefined ||
          attempt >= maxAttempts ||
          elapsed + decision.delayMs > maxElapsedMs
        ) {
          logAttempt(context, attemptStarted, outcome);
          if ("response" in outcome) return outcome.response;
          throw outcome.error;
        }
        if ("response" in outcome) await outcome.response.body?.cancel().catch(() => {});
        logAttempt(context, attemptStarted, outcome, decision);
        await sleep(decision.delayMs, context.signal);
      }
    };
  };
}

function retryDecision(
  outcome: AttemptOutcome,
  attempt: number,
  baseDelayMs: number,
  maxDelayMs: number,
  context: CallContext,
): { reason: string; delayMs: number } | undefined {
  const backoff = () => backoffDelay(attempt, baseDelayMs, maxDelayMs);
  if ("error" in outcome) {
    const reason = connectionErrorReason(outcome.error, context);
    return reason === undefined ? undefined : { reason, delayMs: backoff() };
  }
  const { status, headers } = outcome.response;
  if (!RETRIED_STATUSES.has(status)) return undefined;
  const asked = retryAfterMs(headers.get("retry-after"));
  if (asked !== undefined && asked > maxDelayMs) return undefined; // the caller decides
  const delayMs = asked !== undefined ? asked : status === 429 ? 1000 : backoff();
  // A little jitter on top of Retry-After keeps processes sharing a token from retrying together.
  return { reason: `HTTP ${status}`, delayMs: delayMs + Math.random() * 100 };
}

/** Why a thrown error is worth retrying, or undefined when it is not. */
function connectionErrorReason(error: unknown, context: CallContext): string | undefined {
  if (context.signal?.aborted) return undefined;
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === "object" && current !== null; depth++) {
    const e = current as { name?: unknown; code?: unknown; retryable?: unknown; cause?: unknown };
    if (typeof e.code === "string" && CONNECTION_ERROR_CODES.has(e.code)) return e.code;
    if (e.retryable === true) return typeof e.name === "string" ? e.name : "retryable error";
    if (e.name === "TimeoutError") return "attempt timed out";
    current = e.cause;
  }
  return undefined;
}
