/**
 * Per-token rate limiting: the service allows 20 calls/s and 72,000 calls/h per access token.
 *
 * - Each call waits for a slot of a strict sliding 1-s window (see sliding-window.ts), so a
 *   strict server never sees more than `perSecond` calls in any second, and bursts of
 *   `perSecond` go out at once.
 * - The hourly budget is a Bottleneck reservoir refilled every hour (a fixed hourly window: at
 *   the default limits the per-second pacing alone already keeps any sliding hour ≤ 72,000).
 *   A call aborted while queued still uses one unit of it (Bottleneck cannot unqueue a job).
 * - Limiters are keyed by sha256(token) and the limits, never by the token itself. In-process
 *   limiters live for the life of the process (never evicted), so an idle period never resets
 *   the hourly budget and two clients on one token share it.
 * - Cluster mode (`redis`): Bottleneck's ioredis datastore shares the window and the hourly
 *   budget between processes and machines. Processes share a budget when they use the same
 *   token and the same limits. Such a layer holds two Redis connections until `close()`.
 *
 * To turn limiting off (Enterprise installs without limits), leave this layer out of the stack:
 * Bottleneck costs milliseconds per call even with no limits set.
 */
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import type Bottleneck from "bottleneck";
import type { CallInfo } from "./errors/seqera-api-error.js";
import { SlidingWindowGate } from "./sliding-window.js";
import type { TransportLayer } from "./transport.js";

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

export interface RateLimitOptions {
  /** Calls allowed in any sliding 1-s window. Default 20. */
  perSecond?: number;
  /** Calls allowed per hour; `null` for no hourly budget. Default 72,000. */
  perHour?: number | null;
  /**
   * Added to the 1-s window for what latency measurements cannot see (e.g. a slower way back
   * than way in). Default 5. Each millisecond costs 0.1% of throughput.
   */
  windowMarginMs?: number;
  /**
   * Share the budget through Redis (cluster mode): a `redis://` URL or ioredis options. Needs
   * the `ioredis` package (5.x). Call `close()` when done, or the connections keep the process
   * alive.
   */
  redis?: string | RedisOptions;
}

export type RateLimitLayer = TransportLayer & {
  /**
   * Releases what the layer holds. Cluster mode: rejects calls still queued, waits for the
   * held slots to end (at most about a second) so other processes see them freed, then closes
   * the Redis connections. In-process mode: nothing to release (timers never keep a process
   * alive), and the budget stays for other clients on the same token.
   */
  close(): Promise<void>;
};

/** Loaded on first use, so a client with `rateLimit: false` never even loads Bottleneck. */
const loadBottleneck = (): typeof Bottleneck =>
  createRequire(import.meta.url)("bottleneck") as typeof Bottleneck;

const HOUR_MS = 3_600_000;
/** Redis keys of an idle limiter expire after this long (longer than the hourly budget). */
const REDIS_KEY_TTL_MS = 2 * HOUR_MS;
/** Redis frees the slots of a process that died mid-hold this long after their longest hold. */
const CRASH_RECOVERY_MS = 5_000;
/** Cluster mode: how often each process polls Redis (hourly refill, lost messages). */
const REDIS_HEARTBEAT_MS = 1_000;

interface Limits {
  perSecond: number;
  perHour: number | null;
  holdMs: number;
}

/** In-process limiters by key; kept for the life of the process so budgets never reset. */
const localGates = new Map<string, SlidingWindowGate>();

export function rateLimitLayer(token: string, options: RateLimitOptions = {}): RateLimitLayer {
  const { gate, close } = openGate(token, options);
  const layer: TransportLayer = (next) => async (request, context) => {
    const started = performance.now();
    const permit = await (await gate).acquire(context.signal);
    context.limiterWaitMs = performance.now() - started;
    try {
      return await next(request, context);
    } finally {
      permit.done();
    }
  };
  return Object.assign(layer, { close });
}

function openGate(
  token: string,
  options: RateLimitOptions,
): { gate: SlidingWindowGate | Promise<SlidingWindowGate>; close(): Promise<void> } {
  const limits = resolveLimits(options);
  const key = limiterKey(token, limits);
  if (options.redis === undefined) return { gate: localGate(key, limits), close: async () => {} };
  return clusterGate(key, limits, options.redis);
}

function resolveLimits(options: RateLimitOptions): Limits {
  const perSecond = options.perSecond ?? 20;
  const perHour = options.perHour === undefined ? 72_000 : options.perHour;
  const margin = options.windowMarginMs ?? 5;
  if (!(Number.isInteger(perSecond) && perSecond > 0)) {
    throw new RangeError(`perSecond must be a positive integer, got ${perSecond}`);
  }
  if (perHour !== null && !(Number.isInteger(perHour) && perHour > 0)) {
    throw new RangeError(`perHour must be a positive integer or null, got ${perHour}`);
  }
  if (!(Number.isFinite(margin) && margin >= 0)) {
    throw new RangeError(`windowMarginMs must be a non-negative number, got ${margin}`);
  }
  return { perSecond, perHour, holdMs: 1000 + margin };
}

/** Identifies a budget without revealing the token (also the Redis key prefix). */
function limiterKey(token: string, limits: Limits): string {
  const tokenHash = createHash("sha256").update(token).digest("hex").slice(0, 32);
  return `seqera-api:${tokenHash}:${limits.perSecond}:${limits.perHour ?? "none"}:${limits.holdMs}`;
}

function bottleneckOptions(limits: Limits): Bottleneck.ConstructorOptions {
  const options: Bottleneck.ConstructorOptions = { maxConcurrent: limits.perSecond };
  if (limits.perHour === null) return options;
  return {
    ...options,
    reservoir: limits.perHour,
    reservoirRefreshAmount: limits.perHour,
    reservoirRefreshInterval: HOUR_MS,
  };
}

function localGate(key: string, limits: Limits): SlidingWindowGate {
  let gate = localGates.get(key);
  if (gate === undefined) {
    const Limiter = loadBottleneck();
    gate = new SlidingWindowGate(new Limiter(bottleneckOptions(limits)), limits.holdMs);
    localGates.set(key, gate);
  }
  return gate;
}

/**
 * Calls can queue at once: Bottleneck waits for Redis itself, and a queued call can still be
 * aborted while Redis is unreachable (ioredis keeps reconnecting).
 */
function clusterGate(
  key: string,
  limits: Limits,
  redis: string | RedisOptions,
): { gate: Promise<SlidingWindowGate>; close(): Promise<void> } {
  let ready = false;
  const created = createClusterLimiter(key, limits, redis);
  const gate = created.then(({ limiter }) => {
    limiter.ready().then(
      () => (ready = true),
      () => {}, // callers see the failure through their calls
    );
    const expirationMs = SlidingWindowGate.maxHoldMs(limits.holdMs) + CRASH_RECOVERY_MS;
    return new SlidingWindowGate(limiter, limits.holdMs, expirationMs);
  });
  // A failure reaches callers through their calls; unobserved, it must not crash the process.
  gate.catch(() => {});

  const close = async () => {
    const parts = await created.catch(() => undefined);
    if (parts === undefined) return;
    const { limiter, connection } = parts;
    if (!ready) return connection.disconnect(false);
    await limiter.stop({ dropWaitingJobs: true, dropErrorMessage: "The rate limiter was closed" });
    // Let the last held slots' "free" scripts reach Redis before the connection quits.
    await new Promise((resolve) => setImmediate(resolve));
    await limiter.disconnect(true);
    await connection.disconnect(true);
  };
  let closing: Promise<void> | undefined;
  return { gate, close: () => (closing ??= close()) };
}

async function createClusterLimiter(
  key: string,
  limits: Limits,
  redis: string | RedisOptions,
): Promise<{ limiter: Bottleneck; connection: Bottleneck.IORedisConnection }> {
  const { Redis } = await import("ioredis").catch((cause: unknown) => {
    throw new Error("Rate limiting through Redis needs the ioredis package (npm i ioredis)", {
      cause,
    });
  });
  const client = typeof redis === "string" ? new Redis(redis) : new Redis(redis);
  const Limiter = loadBottleneck();
  const connection = new Limiter.IORedisConnection({ client, Redis });
  const limiter = new Limiter({
    ...bottleneckOptions(limits),
    id: key,
    datastore: "ioredis",
    connection,
    clearDatastore: false,
    timeout: REDIS_KEY_TTL_MS,
    heartbeatInterval: REDIS_HEARTBEAT_MS,
  });
  // Errors surface to callers through their rejected calls; a listener keeps them from throwing.
  limiter.on("error", () => {});
  connection.on("error", () => {});
  return { limiter, connection };
}

/** One attempt's slot; see RateLimiter. */
export interface Permit {
  /**
   * The attempt ended: `status` of the response whose headers arrived, or undefined when no
   * response arrived (connection error, timeout, abort). Call exactly once.
   */
  done(status?: number): void;
}

/** The limiter as the client uses it: a slot per attempt. */
export interface RateLimiter {
  /** Waits for a slot for one attempt; rejects with the signal's reason when it aborts. */
  acquire(call: CallInfo, signal?: AbortSignal): Promise<Permit>;
  /** Releases timers and connections (see RateLimitLayer.close). */
  close(): Promise<void>;
}

/**
 * The client's limiter, over the same gates as rateLimitLayer. The options were checked by the
 * client's configuration (config.ts).
 */
export function createRateLimiter(token: string, options: RateLimitOptions): RateLimiter {
  const { gate, close } = openGate(token, options);
  return {
    acquire: async (_call, signal) => {
      const permit = await (await gate).acquire(signal);
      return { done: () => permit.done() };
    },
    close,
  };
}
