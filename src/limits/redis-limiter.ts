/**
 * The limiter shared through Redis (cluster mode): the same sliding window as in process, kept
 * in Redis by the scripts of redis-scripts.ts over one ioredis connection per limiter.
 *
 * Each limiter queues its calls locally (FIFO, abortable at once) and asks Redis for as many
 * slots as it has calls, one request at a time; when Redis grants fewer, it asks again when the
 * oldest grant leaves the window, as Redis said. Queued calls hold nothing in Redis, so an
 * aborted call frees nothing there; a grant that finds no call left is given back.
 *
 * Faults:
 * - Redis unreachable (down, refusing, not answering, a script error): queued calls wait while
 *   ioredis reconnects; a call that has waited `timeoutMs` of such an outage fails with
 *   RateLimiterUnavailableError (it was not sent). A grant whose answer was lost counts in
 *   Redis without being used: safe, only a slot lost.
 * - Redis restarted empty: the grant script notices the missing state and grants nothing for
 *   one window (redis-scripts.ts), then calls go on; the scripts are loaded again by ioredis.
 * - close(): every queued call fails with RateLimiterUnavailableError, then the connection
 *   closes (QUIT, at most a second, then dropped).
 */
import { importOptional } from "../core/optional-dependency.js";
import type { Redis as RedisClient, RedisOptions as IORedisOptions } from "ioredis";
import type { CallInfo } from "../errors/seqera-api-error.js";
import type { Permit, RateLimiter, RedisOptions } from "./types.js";
import { brokenError, closedError, unreachableError } from "./errors.js";
import { baseAllowanceMs, MAX_LEARNED_MS } from "./margin.js";
import { EXTEND, GRANT, WIDEN } from "./redis-scripts.js";
import { BATCH, Grant, SendTracker } from "./send-tracker.js";
import { WaiterQueue } from "./waiters.js";
import { HOUR_MS } from "../core/time.js";

export interface RedisLimiterSettings {
  /** Key prefix naming the budget (never the token). */
  prefix: string;
  perSecond: number;
  perHour: number | null;
  marginMs: number;
  redis: string | RedisOptions;
  /** How long a queued call waits through a Redis outage before it fails. */
  timeoutMs: number;
}

/** State of a budget outlives idle periods: the hourly log, and the allowance learned. */
const STATE_TTL_MS = 24 * HOUR_MS;
/** A command unanswered this long counts as Redis not answering (a stopped server, a dead link). */
const COMMAND_TIMEOUT_MS = 2_000;
/** An extension costs a round trip here, so only a delay that could matter gets one. */
const LATE_SEND_MS = 3;

interface Scripts {
  seqeraGrant(...args: (string | number)[]): Promise<[number, number, number, number, number]>;
  seqeraExtend(...args: (string | number)[]): Promise<number>;
  seqeraWiden(...args: (string | number)[]): Promise<number>;
}
type Connection = RedisClient & Scripts;

export function createRedisLimiter(settings: RedisLimiterSettings): RateLimiter {
  return new RedisLimiter(settings);
}

class RedisLimiter implements RateLimiter {
  private readonly queue = new WaiterQueue<Permit>(() => {
    if (this.queue.size === 0) this.stopDeadline();
  });
  private readonly tracker = new SendTracker(LATE_SEND_MS);
  private readonly stamps: string;
  private readonly state: string;
  private readonly hourly: boolean;
  private readonly keepMs: number;
  private readonly connection: Promise<Connection>;
  private redis: Connection | undefined;
  private asking = false;
  private nextAsk: NodeJS.Timeout | undefined;
  private waitingForReady = false;
  private failures = 0;
  /** Since when (performance.now()) Redis has not answered, and its last error. */
  private down: { since: number; error: unknown } | undefined;
  private deadline: NodeJS.Timeout | undefined;
  private lastError: unknown;
  private closing: Promise<void> | undefined;
  /** Set when no connection can be made at all (ioredis missing). */
  private broken: unknown;
  /** Extensions not sent yet: grant number, ms, … */
  private extensions: number[] = [];
  /** A send of the extensions is queued for this turn of the event loop. */
  private sendQueued = false;
  /** Lost extensions wait for the connection to be ready again. */
  private resendingOnReady = false;
  /** The learned part of the allowance, shared through Redis, as of the last grant. */
  learnedMs = 0;

  constructor(private readonly settings: RedisLimiterSettings) {
    this.stamps = `${settings.prefix}:stamps`;
    this.state = `${settings.prefix}:state`;
    this.hourly = settings.perHour !== null && settings.perHour < settings.perSecond * 3600;
    // Grants must outlive the window and any extension they got.
    this.keepMs = this.hourly ? HOUR_MS : 2000 + MAX_LEARNED_MS + settings.marginMs;
    this.connection = connect(settings.redis, (error) => (this.lastError = error));
    this.connection.then(
      (redis) => {
        this.redis = redis;
        if (this.closing) redis.disconnect();
        else this.ask();
      },
      (error: unknown) => {
        this.broken = error;
        this.queue.rejectAll((waiter) => brokenError(waiter.call, error));
      },
    );
  }

  acquire(call: CallInfo, signal?: AbortSignal): Promise<Permit> {
    if (this.closing) return Promise.reject(closedError(call));
    if (this.broken) return Promise.reject(brokenError(call, this.broken));
    if (signal?.aborted) return Promise.reject(signal.reason);
    const permit = this.queue.push(call, signal, this, performance.now());
    if (this.down) this.armDeadline();
    this.ask();
    return permit;
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  widen(epoch: number): void {
    this.redis?.seqeraWiden(this.state, epoch, STATE_TTL_MS).catch(ignore);
  }

  /** Extensions are sent together, in one script call per turn of the event loop. */
  extend(member: number, ms: number): void {
    this.extensions.push(member, ms);
    if (this.sendQueued) return;
    this.sendQueued = true;
    queueMicrotask(() => {
      this.sendQueued = false;
      this.sendExtensions();
    });
  }

  private sendExtensions(): void {
    const redis = this.redis;
    if (this.extensions.length === 0 || !redis) return;
    const batch = this.extensions;
    this.extensions = [];
    redis.seqeraExtend(this.stamps, ...batch).catch(() => {
      // Lost with the connection: a grant moved too little lets its slot go again too early
      // (more than the limit would arrive in one second), so they go again once it is back. Had the lost call run, its grants move twice: only later.
      if (this.closing) return;
      this.extensions.unshift(...batch);
      // Still connected (a command timed out on a stalled server): they go with the next send.
      // Disconnected: once it is back, with one listener however many batches were lost.
      if (redis.status === "ready" || this.resendingOnReady) return;
      this.resendingOnReady = true;
      redis.once("ready", () => {
        this.resendingOnReady = false;
        this.sendExtensions();
      });
    });
  }

  /** Asks Redis for slots for the queued calls, unless a request or a wait is under way. */
  private ask(): void {
    const redis = this.redis;
    if (this.closing || this.asking || this.nextAsk || !redis || this.queue.size === 0) return;
    if (redis.status !== "ready") {
      this.markDown(performance.now(), this.lastError);
      if (!this.waitingForReady) {
        this.waitingForReady = true;
        redis.once("ready", () => {
          this.waitingForReady = false;
          this.ask();
        });
      }
      return;
    }
    this.asking = true;
    const sentAt = performance.now();
    const { perSecond, perHour, marginMs } = this.settings;
    const want = Math.min(this.queue.size, perSecond, BATCH);
    redis
      .seqeraGrant(
        this.stamps,
        this.state,
        perSecond,
        this.hourly ? perHour! : 0,
        marginMs,
        want,
        this.keepMs,
        STATE_TTL_MS,
      )
      .then(
        ([granted, first, waitMs, epoch, learnedMs]) => {
          this.asking = false;
          this.failures = 0;
          this.down = undefined;
          this.stopDeadline();
          this.learnedMs = learnedMs;
          this.hand(granted, first, epoch, sentAt);
          if (granted < want) this.askIn(waitMs);
          else this.ask();
        },
        (error: unknown) => {
          this.asking = false;
          this.markDown(sentAt, error);
          // Reconnecting is ioredis's job; a script or reply error gets a short backoff.
          this.askIn(Math.min(1000, 100 * 2 ** this.failures++));
        },
      );
  }

  private askIn(ms: number): void {
    if (this.closing) return;
    this.nextAsk = setTimeout(() => {
      this.nextAsk = undefined;
      this.ask();
    }, ms);
  }

  /** Hands granted slots to the calls at the head of the queue; gives back the ones left over. */
  private hand(granted: number, first: number, epoch: number, sentAt: number): void {
    const now = performance.now();
    const unused: number[] = [];
    for (let member = first; member < first + granted; member++) {
      const waiter = this.queue.shift();
      if (!waiter) {
        unused.push(member);
        continue;
      }
      const grant = new RedisGrant(this, this.tracker, member, epoch, sentAt);
      this.tracker.granted(grant, now);
      waiter.resolve(grant);
    }
    if (unused.length > 0) this.redis?.zrem(this.stamps, ...unused).catch(ignore);
  }

  private markDown(since: number, error: unknown): void {
    if (this.down) this.down.error = error ?? this.down.error;
    else this.down = { since, error };
    this.armDeadline();
  }

  /** One timer, for the call at the head of the queue: calls queued later fail later. */
  private armDeadline(): void {
    const head = this.queue.head;
    if (this.deadline || !this.down || !head || this.settings.timeoutMs === Infinity) return;
    const at = Math.max(this.down.since, head.since) + this.settings.timeoutMs;
    this.deadline = setTimeout(
      () => {
        this.deadline = undefined;
        this.expire(performance.now());
      },
      Math.max(0, Math.ceil(at - performance.now())),
    );
  }

  /** Fails the queued calls that have waited `timeoutMs` of the outage by `now`. */
  private expire(now: number): void {
    const down = this.down;
    if (!down) return;
    for (let head = this.queue.head; head; head = this.queue.head) {
      if (Math.max(down.since, head.since) + this.settings.timeoutMs > now) break;
      this.queue
        .shift()!
        .reject(
          unreachableError(head.call, this.settings.redis, this.settings.timeoutMs, down.error),
        );
    }
    this.armDeadline();
  }

  private stopDeadline(): void {
    clearTimeout(this.deadline);
    this.deadline = undefined;
  }

  private async shutDown(): Promise<void> {
    this.queue.rejectAll((waiter) => closedError(waiter.call));
    this.stopDeadline();
    clearTimeout(this.nextAsk);
    this.nextAsk = undefined;
    const redis = this.redis;
    if (!redis) return; // still loading: disconnected as soon as it is created
    this.sendExtensions();
    if (redis.status === "ready") {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        redis.quit().catch(ignore),
        new Promise((resolve) => (timer = setTimeout(resolve, 1000))),
      ]);
      clearTimeout(timer);
    }
    redis.disconnect();
  }
}

class RedisGrant extends Grant {
  constructor(
    private readonly limiter: RedisLimiter,
    tracker: SendTracker,
    private readonly member: number,
    private readonly epoch: number,
    /** When the grant was asked for: it was made at or after this. */
    sentAt: number,
  ) {
    super(tracker, sentAt);
  }

  protected move(ms: number): void {
    this.limiter.extend(this.member, ms);
  }

  allowanceMs(): number {
    return baseAllowanceMs(performance.now()) + this.limiter.learnedMs;
  }

  protected rejected(): void {
    this.limiter.widen(this.epoch);
  }
}

async function connect(
  redis: string | RedisOptions,
  onError: (error: unknown) => void,
): Promise<Connection> {
  const { Redis } = await importOptional<typeof import("ioredis")>(
    "ioredis",
    "rateLimit.redis (sharing the rate limit through Redis)",
    "ioredis@^5",
  );
  // The limiter does its own waiting and bounding: commands fail at once while disconnected,
  // and a command lost with its connection is not resent (its grant may already count).
  const ours: IORedisOptions = {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: COMMAND_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(1000, 50 * attempt),
  };
  const client =
    typeof redis === "string"
      ? new Redis(redis, ours)
      : new Redis({ ...(redis as IORedisOptions), ...ours });
  // Errors reach callers through their calls; a listener keeps them from being thrown.
  client.on("error", onError);
  client.defineCommand("seqeraGrant", { numberOfKeys: 2, lua: GRANT });
  client.defineCommand("seqeraExtend", { numberOfKeys: 1, lua: EXTEND });
  client.defineCommand("seqeraWiden", { numberOfKeys: 1, lua: WIDEN });
  return client as Connection;
}

const ignore = () => {};
