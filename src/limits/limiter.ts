/**
 * Per-token rate limiting: the service allows 20 calls/s and 72,000 calls/h per access token.
 *
 * - Each attempt waits for a slot of a strict sliding window of 1 s plus a margin, so a strict
 *   server never sees more than `perSecond` calls in any second; and, when `perHour` binds, of
 *   a sliding 60 minutes.
 * - Slots of a token are taken at least 3 ms apart (slot.ts's spacingMs): a burst of 20 leaves
 *   over 60 ms rather than at once, so a server does not read the last of it well after it was
 *   written (its accept queue full, its parsers queued behind each other). The spacing costs
 *   about 60 ms once: each slot is taken again a window after the one before it.
 * - A slot counts from when the server may have counted its request (slot.ts): from its
 *   answer, or 35 ms after its request left; slow or unanswered calls hold no slot past their
 *   window, and waiting for one is bounded by the call's `timeoutMs` and signal. For a minute
 *   after a 429, the token's slots count from their answers (up to a window after they left).
 * - In process (sliding-window.ts), there is one window per token, keyed by sha256(token) (never
 *   by the token itself), living for the life of the process (never evicted): an idle period
 *   never resets the hourly budget, and every client on one token counts the others' calls,
 *   since the service counts per token. Each client's own limits bind its own calls, until it
 *   is closed.
 * - Cluster mode (`redis`, redis-limiter.ts): the window lives in Redis, shared by every
 *   process and machine using the same token and limits.
 * - The window is 1 s plus `windowMarginMs`. A 429 the service still answers is retried by the
 *   call (src/http), after its `Retry-After`, through a new slot.
 *
 * Options are validated by the client's configuration (src/config/checks.ts); this module
 * assumes valid values.
 */
import { sha256 } from "../core/builtin.js";
import type { RateLimiter, RateLimitOptions } from "./types.js";
import { closedError } from "./errors.js";
import { createRedisLimiter } from "./redis-limiter.js";
import { TokenWindow } from "./sliding-window.js";

export type { RateLimiter, Slot, RateLimitOptions, RedisOptions } from "./types.js";

export const DEFAULT_PER_SECOND = 20;
export const DEFAULT_PER_HOUR = 72_000;
export const DEFAULT_WINDOW_MARGIN_MS = 5;
export const DEFAULT_REDIS_TIMEOUT_MS = 10_000;

/** In-process windows by token hash; kept for the life of the process so budgets never reset. */
const windows = new Map<string, TokenWindow>();

export function createRateLimiter(token: string, options: RateLimitOptions = {}): RateLimiter {
  const perSecond = options.perSecond ?? DEFAULT_PER_SECOND;
  const perHour = options.perHour === undefined ? DEFAULT_PER_HOUR : options.perHour;
  const marginMs = options.windowMarginMs ?? DEFAULT_WINDOW_MARGIN_MS;
  const tokenHash = sha256(token).slice(0, 32);
  if (options.redis !== undefined) {
    return createRedisLimiter({
      // Names the budget without revealing the token. Processes keep each set of limits apart:
      // a budget without an hourly log keeps only seconds of slots in Redis.
      prefix: `seqera-api:{${tokenHash}:${perSecond}:${perHour ?? "none"}}`,
      perSecond,
      perHour,
      marginMs,
      redis: options.redis,
      timeoutMs: options.redisTimeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS,
    });
  }
  const shared = windows.get(tokenHash) ?? new TokenWindow();
  windows.set(tokenHash, shared);
  const member = shared.join(perSecond, perHour, marginMs);
  let closed = false;
  return {
    acquire: (call, signal, timeoutMs = 0) =>
      closed ? Promise.reject(closedError(call)) : shared.acquire(member, call, signal, timeoutMs),
    close: async () => {
      if (closed) return;
      closed = true;
      shared.leave(member, closedError);
    },
  };
}
