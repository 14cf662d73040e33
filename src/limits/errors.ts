/** The errors a limiter settles calls with: always RateLimiterUnavailableError, never a raw one. */
import type { CallInfo } from "../errors/seqera-api-error.js";
import { RateLimiterUnavailableError } from "../errors/rate-limiter-unavailable-error.js";
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
