/**
 * The errors a limiter settles calls with: RateLimiterUnavailableError, or TimeoutError when a
 * call's timeout ran out while it waited; never a raw one.
 */
import type { CallInfo } from "../errors/seqera-api-error.js";
import { RateLimiterUnavailableError } from "../errors/rate-limiter-unavailable-error.js";
import { TimeoutError } from "../errors/timeout-error.js";
import type { RedisOptions } from "./types.js";

export function closedError(call: CallInfo): RateLimiterUnavailableError {
  return new RateLimiterUnavailableError(
    `${call.method} ${call.path} was not sent: the client was closed while it waited for the rate limiter.`,
    { ...call, reason: "closed" },
  );
}

export function brokenError(call: CallInfo, cause: unknown): RateLimiterUnavailableError {
  return new RateLimiterUnavailableError(
    `${call.method} ${call.path} was not sent: ${cause instanceof Error ? cause.message : String(cause)}.`,
    { ...call, reason: "unreachable", cause },
  );
}

export function unreachableError(
  call: CallInfo,
  redis: string | RedisOptions,
  timeoutMs: number,
  cause: unknown,
): RateLimiterUnavailableError {
  return new RateLimiterUnavailableError(
    `${call.method} ${call.path} was not sent: the rate limiter's Redis (${describe(redis)}) ` +
      `was unreachable for ${timeoutMs} ms.`,
    { ...call, reason: "unreachable", cause },
  );
}

/** Host and port only: a Redis URL or options may carry a password. */
function describe(redis: string | RedisOptions): string {
  if (typeof redis !== "string") return `${redis.host ?? "127.0.0.1"}:${redis.port ?? 6379}`;
  try {
    const url = new URL(redis);
    return `${url.hostname}:${url.port || 6379}`;
  } catch {
    return "an invalid URL";
  }
}

export function waitTimeoutError(
  call: CallInfo,
  timeoutMs: number,
  waitedMs: number,
): TimeoutError {
  // Node's timers count from the event loop's cached clock: the timer that ends the wait may
  // fire a fraction of a millisecond before timeoutMs by performance.now(); it waited it whole.
  const waited = Math.max(timeoutMs, Math.round(waitedMs));
  return new TimeoutError(
    `${call.method} ${call.path} was not sent: it waited ${waited} ms for a rate-limit slot, ` +
      `its whole timeout (${timeoutMs} ms). The token's calls are all in use: allow a longer ` +
      `timeoutMs, or make fewer calls at once with this token.`,
    { ...call, timeoutMs, phase: "rate-limit", waitedMs: waited },
  );
}
