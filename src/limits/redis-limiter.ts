/**
 * The limiter shared through Redis (cluster mode): the same sliding window as in process, kept
 * in Redis by the scripts of redis-scripts.ts over one ioredis connection per limiter.
 *
 * Each limiter queues its calls locally (FIFO, abortable at once, bounded by their timeouts) and
 * asks Redis for as many slots as it has calls, one request at a time; when Redis gives fewer,
 * it asks again when the oldest slot leaves the window, as Redis said. Queued calls hold
 * nothing in Redis, so an aborted call frees nothing there; a slot that finds no call left is
 * given back. A slot is moved to the time it counts from (slot.ts) by a move, sent with the
 * others of the same turn of the event loop in one script call.
 *
 * Faults:
 * - Redis unreachable (down, refusing, not answering, a script error): queued calls wait while
 *   ioredis reconnects; a call that has waited `timeoutMs` of such an outage fails with
 *   RateLimiterUnavailableError (it was not sent). A slot whose answer was lost counts in
 *   Redis without being used: safe, only a slot lost.
 * - Redis restarted empty: the take script notices the missing state and gives nothing for
 *   one window (redis-scripts.ts), then calls go on; the scripts are loaded again by ioredis.
 * - close(): every queued call fails with RateLimiterUnavailableError, then the connection
 *   closes (QUIT, at most a second, then dropped).
 */
import { importOptional } from "../core/optional-dependency.js";
import type { Redis as RedisClient, RedisOptions as IORedisOptions } from "ioredis";
import type { CallInfo } from "../errors/seqera-api-error.js";
import type { RateLimiter, RedisOptions, Slot } from "./types.js";
import { brokenError, closedError, unreachableError } from "./errors.js";
import { Alarm } from "./alarm.js";
import { MOVE, TAKE, WIDEN } from "./redis-scripts.js";
import { CountedSlot, PendingSlots, spacingMs, WIDENED_MS } from "./slot.js";
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

/** State of a budget outlives idle periods: its hourly log, and when it was created. */
const STATE_TTL_MS = 24 * HOUR_MS;
/** A command unanswered this long counts as Redis not answering (a stopped server, a dead link). */
const COMMAND_TIMEOUT_MS = 2_000;

interface Scripts {
  seqeraTake(
    ...args: (string | number)[]
  ): Promise<[number, number, number, number, number, number]>;
  seqeraMove(...args: (string | number)[]): Promise<number>;
  seqeraWiden(...args: (string | number)[]): Promise<number>;
}
type Connection = RedisClient & Scripts;

export function createRedisLimiter(settings: RedisLimiterSettings): RateLimiter {
  return new RedisLimiter(settings);
}

class RedisLimiter implements RateLimiter {
  private readonly queue = new WaiterQueue<Slot>(() => {
    if (this.queue.size === 0) this.stopDeadline();
  });
  // A 429 here widens every process's slots on the budget (slot.ts).
  private readonly pending = new PendingSlots(() =>
    this.redis?.seqeraWiden(this.state, WIDENED_MS, STATE_TTL_MS).catch(ignore),
  );
  private readonly stamps: string;
  private readonly state: string;
  private readonly hourly: boolean;
  private readonly keepMs: number;
  private readonly windowMs: number;
  private readonly spacingMs: number;
  /** Slots taken for queued calls, handed out at their spaced times (performance.now()), in order. */
  private readonly spaced: { at: number; member: number; take: Take }[] = [];
  private readonly handOut = new Alarm(() => this.handSpaced(), true);
  private readonly connection: Promise<Connection>;
  private redis: Connection | undefined;
  private asking = false;
  private nextAsk: NodeJS.Timeout | undefined;
  private failures = 0;
  /** Since when (performance.now()) Redis has not answered, and its last error. */
  private down: { since: number; error: unknown } | undefined;
  private deadline: NodeJS.Timeout | undefined;
  private lastError: unknown;
  private closing: Promise<void> | undefined;
  /** Set when no connection can be made at all (ioredis missing). */
  private broken: unknown;
  /** Moves not sent yet: slot number → time it counts from (Redis's clock). */
  private readonly moves = new Map<number, number>();
  /** The last move made for each slot whose move Redis has not confirmed. */
  private readonly latest = new Map<number, number>();
  /** A send of the moves is queued for this turn of the event loop. */
  private sendQueued = false;

  constructor(private readonly settings: RedisLimiterSettings) {
    this.stamps = `${settings.prefix}:stamps`;
    this.state = `${settings.prefix}:state`;
    this.hourly = settings.perHour !== null && settings.perHour < settings.perSecond * 3600;
    // Slots must outlive their window, counted up to two windows after they were taken.
    this.windowMs = 1000 + settings.marginMs;
    this.keepMs = this.hourly ? HOUR_MS : 3 * this.windowMs;
    this.spacingMs = spacingMs(settings.perSecond, this.windowMs);
    this.connection = connect(settings.redis, (error) => (this.lastError = error));
    this.connection.then(
      (redis) => {
        this.redis = redis;
        if (this.closing) return redis.disconnect();
        // Each time the connection is back: the lost moves, then the queued calls.
        redis.on("ready", () => {
          this.sendMoves();
          this.ask();
        });
        this.ask();
      },
      (error: unknown) => {
        this.broken = error;
        this.queue.rejectAll((waiter) => brokenError(waiter.call, error));
      },
    );
  }

  acquire(call: CallInfo, signal?: AbortSignal, timeoutMs = 0): Promise<Slot> {
    if (this.closing) return Promise.reject(closedError(call));
    if (this.broken) return Promise.reject(brokenError(call, this.broken));
    if (signal?.aborted) return Promise.reject(signal.reason);
    const slot = this.queue.push(call, signal, timeoutMs, performance.now());
    if (this.down) this.armDeadline();
    this.ask();
    return slot;
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  /** Moves are sent together, in one script call per turn of the event loop. */
  move(member: number, at: number): void {
    this.moves.set(member, at);
    this.latest.set(member, at);
    if (this.sendQueued) return;
    this.sendQueued = true;
    queueMicrotask(() => {
      this.sendQueued = false;
      this.sendMoves();
    });
  }

  private sendMoves(): void {
    const redis = this.redis;
    if (this.moves.size === 0 || !redis) return;
    const batch = [...this.moves];
    this.moves.clear();
    redis.seqeraMove(this.stamps, this.keepMs, ...batch.flat()).then(
      () => {
        for (const [member, at] of batch)
          if (this.latest.get(member) === at) this.latest.delete(member);
      },
      () => {
        // Lost with the connection: a slot left where it was may free too early (more than the
        // limit would arrive in one second), so each move goes again unless a later one for the
        // same slot was made since. Still connected (a command timed out on a stalled server),
        // they go with the next send; disconnected, once it is back.
        if (this.closing) return;
        for (const [member, at] of batch) {
          if (this.latest.get(member) === at && !this.moves.has(member)) this.moves.set(member, at);
        }
      },
    );
  }

  /** Asks Redis for slots for the queued calls, unless a request or a wait is under way. */
  private ask(): void {
    const redis = this.redis;
    const unserved = this.queue.size - this.spaced.length;
    if (this.closing || this.asking || this.nextAsk || !redis || unserved <= 0) return;
    // Not ready: asked again once it is.
    if (redis.status !== "ready") return this.markDown(performance.now(), this.lastError);
    this.asking = true;
    const sentAt = performance.now();
    const { perSecond, perHour } = this.settings;
    const want = Math.min(unserved, perSecond);
    const { windowMs, spacingMs } = this;
    redis
      .seqeraTake(
        this.stamps,
        this.state,
        perSecond,
        this.hourly ? perHour! : 0,
        windowMs,
        want,
        this.keepMs,
        STATE_TTL_MS,
        spacingMs,
      )
      .then(
        ([taken, first, waitMs, takenAt, startMs, widenedMs]) => {
          this.asking = false;
          this.failures = 0;
          this.down = undefined;
          this.stopDeadline();
          const now = performance.now();
          // Another process's 429, or this one's: the later of the two counts.
          const { pending } = this;
          pending.widenedUntil = Math.max(pending.widenedUntil, sentAt + widenedMs);
          for (let i = 0; i < taken; i++) {
            const delay = startMs + i * spacingMs;
            const take = { sentAt: sentAt + delay, takenAt: takenAt + delay, windowMs };
            if (delay < 1) this.hand(first + i, take);
            else this.spaced.push({ at: now + delay, member: first + i, take });
          }
          this.handOut.set(this.spaced[0]?.at ?? Infinity);
          if (taken < want) this.askIn(waitMs);
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

  /** Hands a slot taken to the call at the head of the queue, or gives it back. */
  private hand(member: number, take: Take): void {
    const waiter = this.queue.shift();
    if (waiter) waiter.resolve(new RedisSlot(this, this.pending, member, take));
    else this.redis?.zrem(this.stamps, member).catch(ignore);
  }

  /** Hands out the spaced slots whose time has come. */
  private handSpaced(): void {
    const now = performance.now();
    while (this.spaced.length > 0 && this.spaced[0]!.at <= now) {
      const { member, take } = this.spaced.shift()!;
      this.hand(member, take);
    }
    this.handOut.set(this.spaced[0]?.at ?? Infinity);
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
    this.handOut.set(Infinity);
    const unused = this.spaced.splice(0).map((slot) => slot.member);
    const redis = this.redis;
    if (!redis) return; // still loading: disconnected as soon as it is created
    // Given back, as to a queue that emptied, before the connection closes.
    if (unused.length > 0) redis.zrem(this.stamps, ...unused).catch(ignore);
    this.sendMoves();
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

/** One slot of an answer of the take script, as the slot needs it. */
interface Take {
  /** performance.now() when it was asked for, plus its spacing: it was taken at or after this. */
  sentAt: number;
  /** Its time on Redis's clock (rounded up). */
  takenAt: number;
  windowMs: number;
}

class RedisSlot extends CountedSlot {
  constructor(
    private readonly limiter: RedisLimiter,
    pending: PendingSlots,
    private readonly member: number,
    private readonly take: Take,
  ) {
    super(pending, take.sentAt, take.windowMs);
  }

  /** On Redis's clock: as long after the take as `to` is after it was asked for (no earlier). */
  protected move(_from: number, to: number): void {
    this.limiter.move(this.member, this.take.takenAt + (to - this.take.sentAt));
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
  // and a command lost with its connection is not resent (its slot may already count).
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
  client.defineCommand("seqeraTake", { numberOfKeys: 2, lua: TAKE });
  client.defineCommand("seqeraMove", { numberOfKeys: 1, lua: MOVE });
  client.defineCommand("seqeraWiden", { numberOfKeys: 1, lua: WIDEN });
  return client as Connection;
}

const ignore = () => {};
