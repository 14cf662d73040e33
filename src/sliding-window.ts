/**
 * The in-process limiter: a strict sliding window over grant times, with no library under it.
 *
 * A call may start when fewer than `perSecond` grants fall in the last 1000 ms + margin (see
 * margin.ts) and, when the hourly budget binds, fewer than `perHour` in the last 60 minutes. So
 * any sliding second holds at most `perSecond` grants, bursts of `perSecond` go out at once, and
 * any sliding hour holds at most `perHour`. (When perHour ≥ 3600 × perSecond, as at the
 * defaults, the per-second window already implies the hourly budget and no hourly log is kept.)
 *
 * Calls that must wait queue in FIFO order behind one timer, set for when the oldest grant in
 * the window leaves it. An aborted call leaves the queue at once; it never held a slot or an
 * hourly unit. A call costs a few microseconds when a slot is free, and a queued one a few
 * hundred bytes.
 *
 * The window counts grants, the server counts arrivals: see send-tracker.ts for how grants are
 * moved to when their request probably left, and margin.ts for how the margin is learned.
 */
import type { CallInfo } from "./errors/seqera-api-error.js";
import { AdaptiveMargin, MAX_LEARNED_MS } from "./rate-limit/margin.js";
import { SendTracker, type Tracked } from "./rate-limit/send-tracker.js";
import { WaiterQueue } from "./rate-limit/waiters.js";
import type { Permit } from "./rate-limit.js";

const HOUR_MS = 3_600_000;
/** In process a restamp is free, so any visible delay is worth one. */
const LATE_SEND_MS = 1;

/** Event times, oldest first; only the last `limit` within `keepMs` are kept. */
export class SlidingLog {
  private times: number[] = [];
  private head = 0;

  constructor(
    private readonly limit: number,
    public keepMs: number,
  ) {}

  /** When the next event may happen: `windowMs` after the limit-th most recent one. */
  nextAt(windowMs: number): number {
    const i = this.times.length - this.limit;
    return i < this.head ? -Infinity : this.times[i]! + windowMs;
  }

  /** Adds an event at `at`, no earlier than any event in the log. */
  add(at: number): void {
    const times = this.times;
    times.push(at);
    let head = this.head;
    if (times.length - head > this.limit) head++;
    while (times[head]! <= at - this.keepMs) head++;
    if (head > 1024 && head * 2 > times.length) {
      this.times = times.slice(head);
      head = 0;
    }
    this.head = head;
  }

  /** Moves the event at `from` to the later `to`; nothing if it already left the log. */
  move(from: number, to: number): void {
    const times = this.times;
    const i = this.lowerBound(from);
    if (i >= times.length || times[i] !== from) return;
    times.splice(i, 1);
    times.splice(this.lowerBound(to), 0, to);
  }

  private lowerBound(value: number): number {
    let low = this.head;
    let high = this.times.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.times[mid]! < value) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

export class LocalLimiter {
  readonly margin: AdaptiveMargin;
  private readonly second: SlidingLog;
  private readonly hour: SlidingLog | undefined;
  private readonly queue = new WaiterQueue<Permit>(() => {
    if (this.queue.size === 0) this.stopTimer();
  });
  private readonly tracker = new SendTracker<LocalPermit>(LATE_SEND_MS);
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  private readonly onTimer = () => {
    this.timer = undefined;
    this.timerAt = Infinity;
    this.release(performance.now());
  };

  constructor(perSecond: number, perHour: number | null, marginMs: number) {
    this.margin = new AdaptiveMargin(marginMs);
    this.second = new SlidingLog(perSecond, keepMs(marginMs));
    this.hour =
      perHour !== null && perHour < perSecond * 3600 ? new SlidingLog(perHour, HOUR_MS) : undefined;
  }

  /** Clients sharing this limiter get the widest `windowMarginMs` any of them asked for. */
  raiseMargin(marginMs: number): void {
    if (marginMs <= this.margin.floorMs) return;
    this.margin.floorMs = marginMs;
    this.second.keepMs = keepMs(marginMs);
  }

  acquire(owner: object, call: CallInfo, signal: AbortSignal | undefined): Promise<Permit> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const now = performance.now();
    if (this.queue.size === 0 && this.nextAt(now) <= now) return Promise.resolve(this.grant(now));
    const permit = this.queue.push(call, signal, owner, now);
    this.schedule(now);
    return permit;
  }

  /** Settles every call `owner` queued with `reason`. */
  rejectQueued(owner: object, reason: (call: CallInfo) => unknown): void {
    this.queue.rejectAll((waiter) => reason(waiter.call), owner);
    if (this.queue.size === 0) this.stopTimer();
  }

  /** Called by a permit's done(). */
  ended(permit: LocalPermit, status: number | undefined): void {
    const now = performance.now();
    if (status === 429) this.margin.widen(permit.epoch, now);
    const latency = now - permit.grantedAt;
    if (permit.cold) permit.restamp(status === undefined ? 0 : this.tracker.fastest());
    // A cold attempt's latency includes opening its connection: not a sample of the fastest.
    this.tracker.ended(now, permit.cold || status === undefined ? undefined : latency);
  }

  restamp(permit: LocalPermit, to: number): void {
    if (to <= permit.grantedAt) return;
    this.second.move(permit.grantedAt, to);
    this.hour?.move(permit.grantedAt, to);
    permit.grantedAt = to;
  }

  private nextAt(now: number): number {
    const at = this.second.nextAt(this.margin.windowMs(now));
    return this.hour === undefined ? at : Math.max(at, this.hour.nextAt(HOUR_MS));
  }

  private grant(now: number): LocalPermit {
    this.second.add(now);
    this.hour?.add(now);
    const permit = new LocalPermit(this, now, this.margin.epoch);
    permit.cold = this.tracker.granted(permit, now);
    return permit;
  }

  private release(now: number): void {
    while (this.queue.head !== undefined && this.nextAt(now) <= now) {
      this.queue.shift()!.resolve(this.grant(now));
    }
    if (this.queue.size > 0) this.schedule(now);
  }

  private schedule(now: number): void {
    const at = this.nextAt(now);
    if (this.timer !== undefined && this.timerAt <= at) return;
    this.stopTimer();
    this.timerAt = at;
    // Timers fire on whole milliseconds, possibly a little early: release() checks again.
    this.timer = setTimeout(this.onTimer, Math.max(0, Math.ceil(at - now)));
  }

  private stopTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
  }
}

/** How long a grant can still count: the widest window the margin can reach. */
const keepMs = (marginMs: number) => 1000 + marginMs + MAX_LEARNED_MS;

class LocalPermit implements Permit, Tracked {
  cold = false;
  private ended = false;

  constructor(
    private readonly limiter: LocalLimiter,
    public grantedAt: number,
    readonly epoch: number,
  ) {}

  restamp(lagMs: number): void {
    this.limiter.restamp(this, performance.now() - lagMs);
  }

  done(status?: number): void {
    if (this.ended) return;
    this.ended = true;
    this.limiter.ended(this, status);
  }
}
