/**
 * Per-token rate limiting: the service allows 20 calls/s and 72,000 calls/h per access token.
 *
 * - Each attempt waits for a slot of a strict sliding window of 1 s plus a margin, so a strict
 *   server never sees more than `perSecond` calls in any second, and bursts of `perSecond` go
 *   out at once; and, when `perHour` binds, of a sliding 60 minutes.
 * - In process (sliding-window.ts), there is one limiter per token, keyed by sha256(token) (never
 *   by the token itself), living for the life of the process (never evicted): an idle period
 *   never resets the hourly budget, and every client on one token shares it whatever its
 *   options, since the service counts per token. Where their limits differ the strictest hold:
 *   the least `perSecond` and `perHour`, the widest `windowMarginMs`.
 * - Cluster mode (`redis`, rate-limit/redis-limiter.ts): the window lives in Redis, shared by
 *   every process and machine using the same token and limits.
 * - The margin starts at `windowMarginMs` and is widened by each 429 the service still answers
 *   (rate-limit/margin.ts); grants are moved to when their request probably left
 *   (rate-limit/send-tracker.ts).
 *
 * Options are validated by the client's configuration (config.ts); this module assumes valid
 * values.
 */
import { sha256 } from "../core/builtin.js";
import type { RateLimiter, RateLimitOptions } from "./types.js";
import { closedError } from "./errors.js";
import { createRedisLimiter } from "./redis-limiter.js";
import { LocalLimiter } from "./sliding-window.js";

export type { Permit, RateLimiter, RateLimitOptions, RedisOptions } from "./types.js";

export const DEFAULT_PER_SECOND = 20;
export const DEFAULT_PER_HOUR = 72_000;
export const DEFAULT_WINDOW_MARGIN_MS = 5;
export const DEFAULT_REDIS_TIMEOUT_MS = 10_000;

/** In-process limiters by token hash; kept for the life of the process so budgets never reset. */
const localLimiters = new Map<string, LocalLimiter>();

export function createRateLimiter(token: string, options: RateLimitOptions = {}): RateLimiter {
  const perSecond = options.perSecond ?? DEFAULT_PER_SECOND;
  const perHour = options.perHour === undefined ? DEFAULT_PER_HOUR : options.perHour;
  const marginMs = options.windowMarginMs ?? DEFAULT_WINDOW_MARGIN_MS;
  const tokenHash = sha256(token).slice(0, 32);
  if (options.redis !== undefined) {
    return createRedisLimiter({
      // Names the budget without revealing the token. Processes keep each set of limits apart:
      // a budget without an hourly log keeps only seconds of grants in Redis.
      prefix: `seqera-api:{${tokenHash}:${perSecond}:${perHour ?? "none"}}`,
      perSecond,
      perHour,
      marginMs,
      redis: options.redis,
      timeoutMs: options.redisTimeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS,
    });
  }
  let limiter = localLimiters.get(tokenHash);
  if (limiter === undefined) {
    limiter = new LocalLimiter(perSecond, perHour, marginMs);
    localLimiters.set(tokenHash, limiter);
  } else {
    limiter.tighten(perSecond, perHour, marginMs);
  }
  return localHandle(limiter);
}

/** One client's view of a shared in-process limiter: close() settles only its own calls. */
function localHandle(limiter: LocalLimiter): RateLimiter {
  let closed = false;
  const handle: RateLimiter = {
    acquire: (call, signal) =>
      closed ? Promise.reject(closedError(call)) : limiter.acquire(handle, call, signal),
    close: async () => {
      closed = true;
      limiter.rejectQueued(handle, closedError);
    },
  };
  return handle;
}
