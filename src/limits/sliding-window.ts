/**
 * The in-process limiter: a strict sliding window over grant times, with no library under it.
 *
 * A call may start when fewer than `perSecond` grants fall in the last 1000 ms + margin and,
 * when the hourly budget binds, fewer than `perHour` in the last 60 minutes. So any sliding
 * second holds at most `perSecond` grants, bursts of `perSecond` go out at once, and any sliding
 * hour holds at most `perHour`. (When perHour ≥ 3600 × perSecond, as at the
 * defaults, the per-second window already implies the hourly budget and no hourly log is kept.)
 *
 * Calls that must wait queue in FIFO order behind one timer, set for when the oldest grant in
 * the window leaves it. An aborted call leaves the queue at once; it never held a slot or an
 * hourly unit. A call costs a few microseconds when a slot is free, and a queued one a few
 * hundred bytes.
 *
 * The window counts grants, the server counts arrivals: see send-tracker.ts for how grants are
 * moved to when their request may have arrived, and margin.ts for how far.
 */
import type { CallInfo } from "../errors/seqera-api-error.js";
import { Allowance, MAX_LEARNED_MS } from "./margin.js";
import { Grant, SendTracker } from "./send-tracker.js";
import { WaiterQueue } from "./waiters.js";
import type { Permit } from "./types.js";
import { HOUR_MS } from "../core/time.js";

/** In process an extension is free, so any visible delay is worth one. */
const LATE_SEND_MS = 1;

/** Event times, oldest first; only the last `limit` within `keepMs` are kept. */
class SlidingLog {
  private head = 0;

  constructor(
    public limit: number,
    public keepMs: number,
    /** Events already made, oldest first. */
    private times: number[] = [],
  ) {}

  /** When the next event may happen: `windowMs` after the limit-th most recent one. */
  nextAt(windowMs: number): number {
    const i = this.times.length - this.limit;
    return i < this.head ? -Infinity : this.times[i]! + windowMs;
  }

  /** The events still kept, oldest first. */
  recent(): number[] {
    return this.times.slice(this.head);
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
  private marginMs: number;
  private readonly allowance = new Allowance();
  private perSecond: number;
  private readonly second: SlidingLog;
  private hour: SlidingLog | undefined;
  private readonly queue = new WaiterQueue<Permit>(() => {
    if (this.queue.size === 0) this.stopTimer();
  });
  private readonly tracker = new SendTracker(LATE_SEND_MS);
  /** The one timer (or immediate) due when the head of the queue may go. */
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private timerAt = Infinity;
  private readonly onTimer = () => {
    this.timer = this.immediate = undefined;
    this.timerAt = Infinity;
    this.release(performance.now());
  };

  constructor(perSecond: number, perHour: number | null, marginMs: number) {
    this.marginMs = marginMs;
    this.perSecond = perSecond;
    this.second = new SlidingLog(perSecond, keepMs(marginMs));
    if (perHour !== null && perHour < perSecond * 3600)
      this.hour = new SlidingLog(perHour, HOUR_MS);
  }

  /**
   * Another client joins on the same token with its own limits: the strictest hold, since the
   * service counts per token. An hourly budget that appears now counts the grants made since
   * then and those still in the 1-s log, not earlier ones.
   */
  tighten(perSecond: number, perHour: number | null, marginMs: number): void {
    if (marginMs > this.marginMs) {
      this.marginMs = marginMs;
      this.second.keepMs = keepMs(marginMs);
    }
    this.perSecond = Math.min(this.perSecond, perSecond);
    this.second.limit = this.perSecond;
    const hourly = Math.min(perHour ?? Infinity, this.hour?.limit ?? Infinity);
    if (hourly >= this.perSecond * 3600) return;
    if (this.hour) this.hour.limit = hourly;
    else this.hour = new SlidingLog(hourly, HOUR_MS, this.second.recent());
  }

  acquire(owner: object, call: CallInfo, signal: AbortSignal | undefined): Promise<Permit> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const now = performance.now();
    if (this.queue.size === 0 && this.nextAt() <= now && !this.tracker.batchFull()) {
      return Promise.resolve(this.grant(now));
    }
    const permit = this.queue.push(call, signal, owner, now);
    this.schedule(now);
    return permit;
  }

  /** Settles every call `owner` queued with `reason`. */
  rejectQueued(owner: object, reason: (call: CallInfo) => unknown): void {
    this.queue.rejectAll((waiter) => reason(waiter.call), owner);
    if (this.queue.size === 0) this.stopTimer();
  }

  /** Moves a grant at `stamp` by `ms` (later). */
  move(stamp: number, ms: number): void {
    this.second.move(stamp, stamp + ms);
    this.hour?.move(stamp, stamp + ms);
  }

  allowanceMs(): number {
    return this.allowance.ms(performance.now());
  }

  widen(epoch: number): void {
    this.allowance.widen(epoch, performance.now());
  }

  private nextAt(): number {
    const at = this.second.nextAt(1000 + this.marginMs);
    return this.hour === undefined ? at : Math.max(at, this.hour.nextAt(HOUR_MS));
  }

  private grant(now: number): LocalGrant {
    this.second.add(now);
    this.hour?.add(now);
    const grant = new LocalGrant(this, this.tracker, now, this.allowance.epoch);
    this.tracker.granted(grant, now);
    return grant;
  }

  private release(now: number): void {
    while (this.queue.head !== undefined && this.nextAt() <= now && !this.tracker.batchFull()) {
      this.queue.shift()!.resolve(this.grant(now));
    }
    if (this.queue.size > 0) this.schedule(now);
  }

  private schedule(now: number): void {
    const at = this.nextAt();
    if ((this.timer ?? this.immediate) !== undefined && this.timerAt <= at) return;
    this.stopTimer();
    this.timerAt = at;
    if (at <= now) {
      // A slot is free but this turn's batch is done: go on after its check phase.
      this.immediate = setImmediate(this.onTimer);
    } else {
      // Timers fire on whole milliseconds, possibly a little early: release() checks again.
      this.timer = setTimeout(this.onTimer, Math.ceil(at - now));
    }
  }

  private stopTimer(): void {
    clearTimeout(this.timer);
    clearImmediate(this.immediate);
    this.timer = this.immediate = undefined;
    this.timerAt = Infinity;
  }
}

/** How long a grant can still count: the window, and any extension it got. */
const keepMs = (marginMs: number) => 2000 + marginMs + MAX_LEARNED_MS;

class LocalGrant extends Grant {
  private stamp: number;

  constructor(
    private readonly limiter: LocalLimiter,
    tracker: SendTracker,
    grantedAt: number,
    private readonly epoch: number,
  ) {
    super(tracker, grantedAt);
    this.stamp = grantedAt;
  }

  protected move(ms: number): void {
    this.limiter.move(this.stamp, ms);
    this.stamp += ms;
  }

  allowanceMs(): number {
    return this.limiter.allowanceMs();
  }

  protected rejected(): void {
    this.limiter.widen(this.epoch);
  }
}
