/**
 * The in-process limiter: a strict sliding window over the times a token's slots count from
 * (slot.ts), with no library under it.
 *
 * One window per token, shared by every client on it; each client (a member) keeps its own
 * limits and its own FIFO queue. A member's call may start when fewer than its `perSecond`
 * slots of the token count in the last 1000 ms + its margin and, when its hourly budget binds,
 * fewer than its `perHour` in the last 60 minutes. So a client never sees more than its limits
 * on the token, bursts of `perSecond` go out within 60 ms (spaced, limiter.ts), and one
 * client's stricter limits bind only its own calls, and only until it is closed. (When perHour
 * ≥ 3600 × perSecond, as at the defaults, the per-second window already implies the hourly
 * budget.)
 *
 * Waiting calls are released, oldest first among the members that may go, behind one timer set
 * for the earliest time one may. An aborted or timed-out call leaves its queue at once; it
 * never held a slot or an hourly unit. A call costs a few microseconds when a slot is free, and
 * a queued one a few hundred bytes.
 */
import type { CallInfo } from "../errors/seqera-api-error.js";
import { Alarm } from "./alarm.js";
import { CountedSlot, PendingSlots, spacingMs } from "./slot.js";
import { WaiterQueue } from "./waiters.js";
import type { Slot } from "./types.js";
import { HOUR_MS } from "../core/time.js";

/** Times, oldest first; only the last `limit` within `keepMs` are kept. */
class SlidingLog {
  private head = 0;

  constructor(
    public limit: number,
    public keepMs: number,
    /** Times already in, oldest first. */
    private times: number[] = [],
  ) {}

  /** When the next of `limit` per `windowMs` may come: `windowMs` after the limit-th newest. */
  nextAt(limit: number, windowMs: number): number {
    const i = this.times.length - limit;
    return i < this.head ? -Infinity : this.times[i]! + windowMs;
  }

  /** The times still kept, oldest first. */
  recent(): number[] {
    return this.times.slice(this.head);
  }

  /** Adds a time `at`: after the others, unless a held slot was moved past it. */
  add(at: number): void {
    const times = this.times;
    if (times.length === 0 || times[times.length - 1]! <= at) times.push(at);
    else times.splice(this.lowerBound(at), 0, at);
    let head = this.head;
    if (times.length - head > this.limit) head++;
    while (times[head]! <= at - this.keepMs) head++;
    if (head > 1024 && head * 2 > times.length) {
      this.times = times.slice(head);
      head = 0;
    }
    this.head = head;
  }

  /** Moves the time `from` to `to` (inserts `to` if `from` already left the log). */
  move(from: number, to: number): void {
    const times = this.times;
    const i = this.lowerBound(from);
    if (i < times.length && times[i] === from) times.splice(i, 1);
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

/** One client's limits and queue on a token's window. */
export class Member {
  readonly queue: WaiterQueue<Slot>;
  /** Its hourly budget, where it binds beyond the per-second window. */
  readonly perHour: number | undefined;
  /** How far apart the token's slots are taken for it. */
  readonly spacingMs: number;

  constructor(
    readonly window: TokenWindow,
    readonly perSecond: number,
    perHour: number | null,
    readonly marginMs: number,
  ) {
    this.perHour = perHour !== null && perHour < perSecond * 3600 ? perHour : undefined;
    this.spacingMs = spacingMs(perSecond, 1000 + marginMs);
    this.queue = new WaiterQueue<Slot>(() => window.reschedule());
  }
}

export class TokenWindow {
  private readonly second = new SlidingLog(0, 0);
  private hour: SlidingLog | undefined;
  private readonly members = new Set<Member>();
  private queued = 0;
  /** The earliest the next slot may be taken: slots are spaced (limiter.ts). */
  private spacedUntil = -Infinity;
  private readonly pending = new PendingSlots();
  /** The one timer, due when the first waiting call may go; it keeps the process alive. */
  private readonly alarm = new Alarm(() => this.release(performance.now()), true);

  /** A client joins with its limits; the log keeps what the largest of them needs. */
  join(perSecond: number, perHour: number | null, marginMs: number): Member {
    const member = new Member(this, perSecond, perHour, marginMs);
    this.members.add(member);
    this.second.limit = Math.max(this.second.limit, perSecond);
    // A slot counts at most two windows after it was taken (one that left late, from its send).
    this.second.keepMs = Math.max(this.second.keepMs, 3 * (1000 + marginMs));
    if (member.perHour !== undefined) {
      // An hourly budget that appears now counts the slots still in the 1-s log, not earlier.
      this.hour ??= new SlidingLog(0, HOUR_MS, this.second.recent());
      this.hour.limit = Math.max(this.hour.limit, member.perHour);
    }
    return member;
  }

  /** A client closed: its queued calls fail with `reason`, its limits no longer apply. */
  leave(member: Member, reason: (call: CallInfo) => unknown): void {
    this.members.delete(member);
    member.queue.rejectAll((waiter) => reason(waiter.call));
    this.reschedule();
  }

  acquire(
    member: Member,
    call: CallInfo,
    signal: AbortSignal | undefined,
    timeoutMs: number,
  ): Promise<Slot> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const now = performance.now();
    if (this.queued === 0 && this.nextAt(member) <= now) {
      return Promise.resolve(this.take(member, now));
    }
    const slot = member.queue.push(call, signal, timeoutMs, now);
    this.reschedule();
    return slot;
  }

  /** Moves a slot's time from `from` to `to`; the waiting calls are looked at again. */
  move(from: number, to: number): void {
    this.second.move(from, to);
    this.hour?.move(from, to);
    if (to < from && this.queued > 0) this.reschedule();
  }

  /** The timer again, for the queues as they are now. */
  reschedule(): void {
    this.queued = 0;
    let at = Infinity;
    for (const member of this.members) {
      if (member.queue.size === 0) continue;
      this.queued += member.queue.size;
      at = Math.min(at, this.nextAt(member));
    }
    this.alarm.set(at);
  }

  private nextAt(member: Member): number {
    const at = Math.max(
      this.spacedUntil,
      this.second.nextAt(member.perSecond, 1000 + member.marginMs),
    );
    return member.perHour === undefined
      ? at
      : Math.max(at, this.hour!.nextAt(member.perHour, HOUR_MS));
  }

  private take(member: Member, now: number): LocalSlot {
    // A timer a millisecond late does not push the slots after it later.
    this.spacedUntil = Math.max(this.spacedUntil, now - 1) + member.spacingMs;
    this.second.add(now);
    this.hour?.add(now);
    return new LocalSlot(this, this.pending, now, 1000 + member.marginMs);
  }

  /** Gives slots, oldest call first, to every waiting call whose member may go now. */
  private release(now: number): void {
    for (;;) {
      let next: Member | undefined;
      for (const member of this.members) {
        const head = member.queue.head;
        if (head === undefined || this.nextAt(member) > now) continue;
        if (next === undefined || head.since < next.queue.head!.since) next = member;
      }
      if (next === undefined) break;
      next.queue.shift()!.resolve(this.take(next, now));
    }
    this.reschedule();
  }
}

class LocalSlot extends CountedSlot {
  constructor(
    private readonly window: TokenWindow,
    pending: PendingSlots,
    takenAt: number,
    windowMs: number,
  ) {
    super(pending, takenAt, windowMs);
  }

  protected move(from: number, to: number): void {
    this.window.move(from, to);
  }
}
