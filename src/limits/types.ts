/** The limiter's shapes: its options, a slot, and the limiter itself. */
import type { CallInfo } from "../errors/seqera-api-error.js";

/**
 * ioredis connection options (https://redis.github.io/ioredis/), declared here so that the
 * package's types do not need ioredis installed by users who never use cluster mode.
 */
export interface RedisOptions {
  host?: string;
  port?: number;
  username?: string;
  password?: string;
  db?: number;
  tls?: object;
  [option: string]: unknown;
}

/**
 * In process, every client on one token counts the calls of all (the service counts per
 * token), each within its own options: a client with a lower `perSecond` or `perHour` slows
 * only its own calls, and only until it is closed. In cluster mode processes share a budget
 * when they give the same `perSecond` and `perHour`.
 */
export interface RateLimitOptions {
  /** Calls allowed in any sliding 1-s window: a positive integer. Default 20. */
  perSecond?: number;
  /** Calls allowed in any sliding 60 minutes: a positive integer, or `null` for none. Default 72,000. */
  perHour?: number | null;
  /**
   * Added to the 1-s window, in ms (≥ 0), for the way from this process's socket to the
   * server's count: how much later than the fastest a request may reach the server (a proxy, a
   * gateway, a path whose delay varies). Default 5: each millisecond costs 0.1% of throughput.
   */
  windowMarginMs?: number;
  /**
   * Share the budget through Redis (cluster mode): a `redis://` URL or ioredis options. Needs
   * the `ioredis` package (5.x). Call `close()` when done, or the connection keeps the process
   * alive.
   */
  redis?: string | RedisOptions;
  /**
   * Cluster mode: how long a call waits, in ms (0 to 2^31 − 1, or Infinity: no limit), while
   * Redis is unreachable before it fails with RateLimiterUnavailableError, unsent. Default
   * 10,000. A Redis that stops answering is noticed within 2 s.
   */
  redisTimeoutMs?: number;
}

/** One attempt's place in the window. */
export interface Slot {
  /**
   * Sends the attempt's request: `send` runs where the limiter can see when the request leaves
   * (Node's fetch), which its count time is bounded from (slot.ts).
   */
  sending<T>(send: () => Promise<T>): Promise<T>;
  /**
   * The request ended: its response's `status` arrived, or none will (no status: a connection
   * error, timeout, abort). A 429 teaches the limiter that the server counts the token's
   * requests later than it did (slot.ts). Calls after the first do nothing.
   */
  done(status?: number): void;
}

export interface RateLimiter {
  /**
   * Waits for a slot for one attempt. Rejects with the signal's reason when it aborts, with
   * TimeoutError when it has waited `timeoutMs` (0: no limit), or with
   * RateLimiterUnavailableError when the limiter cannot work (Redis unreachable past
   * `redisTimeoutMs`, limiter closed); the call then holds nothing and was not sent. `call` is
   * for the errors' details.
   */
  acquire(call: CallInfo, signal?: AbortSignal, timeoutMs?: number): Promise<Slot>;
  /**
   * Settles every queued acquire with RateLimiterUnavailableError and releases what the limiter
   * holds (cluster mode: the Redis connection). In process the token's window stays, for other
   * clients on it; this client's limits no longer apply.
   */
  close(): Promise<void>;
}
