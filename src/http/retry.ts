/**
 * When a failed attempt is tried again, and after how long. The call loop (client.ts) asks after
 * each failed attempt; each retried attempt queues at the rate limiter again.
 *
 * - 429 is retried for every method, POST and PATCH included: the service refused the call
 *   before doing anything. It waits for `Retry-After` (0 or absent: about a second); a wait
 *   longer than `maxDelayMs` is not made, the RateLimitError goes to the caller.
 * - 502/503/504, connection errors (no response), bodies that broke off and attempts that timed
 *   out are retried for GET, HEAD, OPTIONS, PUT and DELETE; for POST and PATCH only when the
 *   call sets `retryUnsafe` (the first attempt may have done its work).
 * - Nothing is retried once the caller's signal has fired (they get their own reason), nor past
 *   `maxAttempts` attempts or `maxElapsedMs` since the call began.
 */
import { backoffDelay } from "../core/backoff.js";
import { BodyReadError } from "../errors/body-read-error.js";
import { ConnectionError } from "../errors/connection-error.js";
import { RateLimitError } from "../errors/rate-limit-error.js";
import { SeqeraApiError } from "../errors/seqera-api-error.js";
import { ServerError } from "../errors/server-error.js";
import { TimeoutError } from "../errors/timeout-error.js";
import type { GiveUp } from "../errors/give-up.js";
import { parseRetryAfter } from "../core/retry-after.js";

export interface RetryOptions {
  /** Attempts per call, the first included. Default 5. */
  maxAttempts?: number;
  /** No retry starts after this long since the call began. Default 60,000 ms. */
  maxElapsedMs?: number;
  /** Backoff before the first retry (randomised between half and all of it). Default 300 ms. */
  baseDelayMs?: number;
  /**
   * Cap on one backoff delay. A Retry-After asking for longer is not waited for: the error
   * goes back to the caller. Default 10,000 ms.
   */
  maxDelayMs?: number;
}

export type RetryPolicy = Readonly<Required<RetryOptions>>;

export const DEFAULT_RETRY: RetryPolicy = Object.freeze({
  maxAttempts: 5,
  maxElapsedMs: 60_000,
  baseDelayMs: 300,
  maxDelayMs: 10_000,
});

/** Where a call stands when an attempt has failed. */
export interface RetryState {
  method: string;
  retryUnsafe: boolean;
  /** The attempt that failed, from 1. */
  attempt: number;
  elapsedMs: number;
}

export interface RetryDecision {
  reason: string;
  delayMs: number;
}

const REPEATABLE_METHODS = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);
const RETRIED_STATUSES = new Set([502, 503, 504]);
/** Codes of connection failures worth another try (undici's in its error's cause). */
const TRANSIENT_CODES: ReadonlySet<string> = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
]);
/** A Retry-After of 0 means about a second: the service's window is one second long. */
const MIN_RETRY_AFTER_MS = 1000;

/** The retry to make after `error`, or undefined to give the error to the caller. */
export function retryDecision(
  error: unknown,
  state: RetryState,
  policy: RetryPolicy,
): RetryDecision | undefined {
  // The caller's abort reason, a bad option: never retried.
  if (!(error instanceof SeqeraApiError) || state.attempt >= policy.maxAttempts) return undefined;
  const decision = decide(error, state, policy);
  if (decision === undefined || state.elapsedMs + decision.delayMs > policy.maxElapsedMs) {
    return undefined;
  }
  return decision;
}

function decide(
  error: SeqeraApiError,
  state: RetryState,
  policy: RetryPolicy,
): RetryDecision | undefined {
  if (error instanceof RateLimitError) return afterServerWait(error.retryAfter, "HTTP 429", policy);
  if (!(state.retryUnsafe || REPEATABLE_METHODS.has(state.method))) return undefined;
  const backoff = () => backoffDelay(state.attempt, policy.baseDelayMs, policy.maxDelayMs);
  if (error instanceof TimeoutError) return { reason: "attempt timed out", delayMs: backoff() };
  if (error instanceof BodyReadError) return { reason: "body broke off", delayMs: backoff() };
  if (error instanceof ConnectionError) {
    const code = error.code;
    return code !== undefined && TRANSIENT_CODES.has(code)
      ? { reason: code, delayMs: backoff() }
      : undefined;
  }
  if (error.status !== undefined && RETRIED_STATUSES.has(error.status)) {
    const asked = parseRetryAfter(error.response?.headers.get("retry-after"));
    if (asked === undefined) return { reason: `HTTP ${error.status}`, delayMs: backoff() };
    return afterServerWait(asked, `HTTP ${error.status}`, policy);
  }
  return undefined;
}

/**
 * Waits what the server asked (at least about a second), plus a little jitter so that processes
 * sharing a token do not retry together; undefined when it asked for more than maxDelayMs.
 */
function afterServerWait(
  seconds: number | undefined,
  reason: string,
  policy: RetryPolicy,
): RetryDecision | undefined {
  const askedMs = seconds === undefined ? 0 : seconds * 1000;
  if (askedMs > policy.maxDelayMs) return undefined;
  return { reason, delayMs: Math.max(askedMs, MIN_RETRY_AFTER_MS) + Math.random() * 100 };
}

/**
 * Why a failure worth retrying was given to the caller instead, as data (told per front end by
 * errors/give-up.ts); undefined for a failure no retry would mend (a 400, a 403...), which needs
 * no explaining.
 */
export function whyNotRetried(
  error: unknown,
  state: RetryState,
  policy: RetryPolicy | false,
): GiveUp | undefined {
  // Retries turned off were the caller's choice: nothing to explain.
  if (!(error instanceof SeqeraApiError) || policy === false) return undefined;
  const tried = { attempts: state.attempt, elapsedMs: state.elapsedMs, method: state.method };
  const asked =
    error instanceof RateLimitError
      ? error.retryAfter
      : parseRetryAfter(error.response?.headers.get("retry-after"));
  if (isRetryable(error) && asked !== undefined && asked * 1000 > policy.maxDelayMs) {
    return {
      ...tried,
      stoppedBy: "retryAfter",
      limit: policy.maxDelayMs,
      retryAfterSeconds: asked,
    };
  }
  const decision = decide(error, { ...state, attempt: 1 }, policy);
  if (decision === undefined) {
    if (!isRetryable(error) || error instanceof RateLimitError) return undefined;
    if (error instanceof ConnectionError && !TRANSIENT_CODES.has(error.code ?? ""))
      return undefined;
    return { ...tried, stoppedBy: "unsafe" };
  }
  if (state.attempt >= policy.maxAttempts) {
    return { ...tried, stoppedBy: "maxAttempts", limit: policy.maxAttempts };
  }
  return { ...tried, stoppedBy: "maxElapsedMs", limit: policy.maxElapsedMs };
}

/** Statuses a later request meets again: what the server does not implement or allow. */
const LASTING_SERVER_STATUSES = new Set([501, 505, 506, 508, 510, 511]);

/**
 * The one decision of what is transient: a failure that says nothing lasting about the call or
 * its resource, so a later poll of a wait (automation/poll.ts) may well succeed. A retry soon
 * after mends only the retryable ones: a 500 is more often met again at once.
 */
export function isTransient(error: unknown): boolean {
  if (!(error instanceof SeqeraApiError)) return false;
  if (error instanceof ServerError) return !LASTING_SERVER_STATUSES.has(error.status!);
  return isRetryable(error);
}

/** Failures a later attempt of the same call may not meet. */
function isRetryable(error: SeqeraApiError): boolean {
  return (
    error instanceof RateLimitError ||
    error instanceof TimeoutError ||
    error instanceof BodyReadError ||
    error instanceof ConnectionError ||
    (error.status !== undefined && RETRIED_STATUSES.has(error.status))
  );
}
