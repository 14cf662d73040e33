/**
 * When did a granted request really reach the server? The window counts grants, the server
 * counts arrivals, so each grant is moved later ("extended") by what the limiter learns:
 *
 * - A late send: the event loop did not run between the grant and the check phase right after
 *   it (a busy or starved process, the first fetch loading undici). A grant whose check phase
 *   comes more than `lateSendMs` late is extended to then: its request left no earlier.
 * - Its answer: the latency above the fastest round trip is how much later than a prompt
 *   request it may have arrived; the grant is extended by that much, up to the allowance
 *   (margin.ts), plus the longest recent late send: a process that was starved before its
 *   check phase is as likely to be starved after it, past what the check could see. (The load
 *   average that also widens the allowance lags a minute behind a machine that just got
 *   crowded.) The fastest is the least latency this limiter has seen, counted only after
 *   MIN_SAMPLES answers: while a process starts, every call is slow, and the next ones may not
 *   be, so a recent minimum would excuse too little.
 * - A new connection: a request that cannot reuse a kept-alive socket first opens one (and on
 *   TLS shakes hands), which no allowance is sized for. Such an attempt is extended by all of
 *   its extra latency ("uncapped"). The pool is modelled as undici keeps it: as many sockets as
 *   the most attempts in flight at once, all closed after KEEP_ALIVE_MS without traffic.
 * - No answer yet: the request may still be on its way (a connection whose SYN a full backlog
 *   dropped opens a second later; a server may queue it), and a strict server counts it when it
 *   comes. So a grant still unanswered HOLD_MS after its (extended) stamp is moved to then, and
 *   again while it stays unanswered: its slot is not granted again until its attempt ends. Once
 *   held, its answer extends it by all of its extra latency too (uncapped). Answers within
 *   HOLD_MS cost nothing; a slower one keeps its slot until it comes, since a server whose
 *   listen backlog is full lets a burst's late connections arrive a second later, and a slot
 *   freed before they arrive would be granted twice in the server's window.
 *
 * An extension counts only if it comes before the slot would be granted again (the window's
 * length after the stamp): the hold comes HOLD_LEAD_MS before that, time for Redis to take it.
 *
 * Limiters grant at most BATCH grants per turn of the event loop: the check phase then tells
 * each batch how late it left, where one burst of hundreds would all be extended by the time
 * the last of them took to leave.
 */
import type { Permit } from "./types.js";

export const KEEP_ALIVE_MS = 4_000;
export const BATCH = 10;
/** An unanswered grant is held this long after its stamp: the window's second less a lead. */
const HOLD_LEAD_MS = 250;
const HOLD_MS = 1000 - HOLD_LEAD_MS;
const MIN_SAMPLES = 16;
/** The longest recent late send is forgotten by half in this long. */
const STALL_HALF_LIFE_MS = 1_000;
/** A late send counts as a stall from this long: a batch of requests takes a few ms to send. */
const STALL_MS = 10;

/** A granted slot, as the limiter that made it sees it. */
export abstract class Grant implements Permit {
  /** All its extra latency counts, not up to the allowance: a new connection, or a held grant. */
  uncapped = false;
  private extendedBy = 0;
  private ended = false;

  constructor(
    private readonly tracker: SendTracker,
    /** performance.now() at (or just before) the grant. */
    readonly grantedAt: number,
  ) {}

  /** Moves this grant `ms` later in the limiter's state. */
  protected abstract move(ms: number): void;
  /** How much extra latency may count as a late arrival (margin.ts). */
  abstract allowanceMs(): number;
  /** The service answered 429 to this grant's request. */
  protected abstract rejected(): void;

  /** When an unanswered grant is to be held (see the header). */
  holdAt(): number {
    return this.grantedAt + this.extendedBy + HOLD_MS;
  }

  /** Extends the grant to `ms` after it was made, if it is not already. */
  extendTo(ms: number): void {
    if (ms <= this.extendedBy) return;
    this.move(ms - this.extendedBy);
    this.extendedBy = ms;
  }

  done(status?: number): void {
    if (this.ended) return;
    this.ended = true;
    if (status === 429) this.rejected();
    this.tracker.ended(this, status);
  }
}

export class SendTracker {
  /** Grants whose attempt has not ended, in grant order. */
  private readonly inFlight = new Set<Grant>();
  private holdTimer: NodeJS.Timeout | undefined;
  private readonly hold = () => this.holdUnanswered();
  private sockets = 0;
  private lastActive = -Infinity;
  private samples = 0;
  private fastest = Infinity;
  private pending: Grant[] = [];
  private readonly check = () => this.checkLate();
  private stall = 0;
  private stallAt = 0;

  /** `lateSendMs`: a grant whose check phase comes later than this is extended. */
  constructor(private readonly lateSendMs: number) {}

  /** Whether this turn of the event loop has had its BATCH of grants. */
  batchFull(): boolean {
    return this.pending.length >= BATCH;
  }

  /** Registers a grant made at `now`, marking it cold when its attempt likely opens a socket. */
  granted(grant: Grant, now: number): void {
    if (now - this.lastActive > KEEP_ALIVE_MS) this.sockets = 0;
    this.lastActive = now;
    this.inFlight.add(grant);
    if (this.inFlight.size > this.sockets) {
      this.sockets = this.inFlight.size;
      grant.uncapped = true;
    }
    if (this.pending.push(grant) === 1) setImmediate(this.check);
    this.holdTimer ??= this.holdIn(HOLD_MS);
  }

  /** The grant's attempt ended; `status` is set when a response arrived. */
  ended(grant: Grant, status: number | undefined): void {
    const now = performance.now();
    this.inFlight.delete(grant);
    this.lastActive = now;
    const latency = now - grant.grantedAt;
    // Without an answer the request may have arrived any time until now.
    const fastest = status === undefined || this.samples < MIN_SAMPLES ? 0 : this.fastest;
    const extra = latency - fastest;
    grant.extendTo(
      grant.uncapped ? extra : Math.min(extra, grant.allowanceMs() + this.stallMs(now)),
    );
    // An uncapped attempt's latency includes opening its connection, or is over HOLD_MS: not a
    // sample of the fastest.
    if (grant.uncapped || status === undefined) return;
    this.samples++;
    if (latency < this.fastest) this.fastest = latency;
  }

  /** Holds the grants still unanswered HOLD_MS after their stamp; then waits for the next. */
  private holdUnanswered(): void {
    this.holdTimer = undefined;
    const now = performance.now();
    let next = Infinity;
    for (const grant of this.inFlight) {
      if (grant.holdAt() <= now) {
        grant.uncapped = true;
        grant.extendTo(now - grant.grantedAt);
      }
      next = Math.min(next, grant.holdAt());
    }
    if (next < Infinity) this.holdTimer = this.holdIn(next - now);
  }

  private holdIn(ms: number): NodeJS.Timeout {
    // The attempts themselves keep the process alive, not this timer.
    return setTimeout(this.hold, Math.max(1, Math.ceil(ms))).unref();
  }

  private checkLate(): void {
    const now = performance.now();
    const grants = this.pending;
    this.pending = [];
    let latest = 0;
    for (const grant of grants) {
      const late = now - grant.grantedAt;
      if (late <= this.lateSendMs) continue;
      grant.extendTo(late);
      latest = Math.max(latest, late);
    }
    if (latest > STALL_MS && latest > this.stallMs(now)) {
      this.stall = latest;
      this.stallAt = now;
    }
  }

  /** The longest recent late send, decayed. */
  private stallMs(now: number): number {
    return this.stall * 2 ** (-(now - this.stallAt) / STALL_HALF_LIFE_MS);
  }
}
