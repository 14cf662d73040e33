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
 *   TLS shakes hands), which no allowance is sized for. Such an attempt is "cold" and extended by
 *   all of its extra latency. The pool is modelled as undici keeps it: as many sockets as the
 *   most attempts in flight at once, all closed after KEEP_ALIVE_MS without traffic.
 *
 * An extension counts only if it comes before the slot would be granted again (the window's
 * length after the grant), which holds for answers within about a second.
 *
 * Limiters grant at most BATCH grants per turn of the event loop: the check phase then tells
 * each batch how late it left, where one burst of hundreds would all be extended by the time
 * the last of them took to leave.
 */
import type { Permit } from "./types.js";

export const KEEP_ALIVE_MS = 4_000;
export const BATCH = 10;
const MIN_SAMPLES = 16;
/** The longest recent late send is forgotten by half in this long. */
const STALL_HALF_LIFE_MS = 1_000;
/** A late send counts as a stall from this long: a batch of requests takes a few ms to send. */
const STALL_MS = 10;

/** A granted slot, as the limiter that made it sees it. */
export abstract class Grant implements Permit {
  cold = false;
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
  private inFlight = 0;
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
    if (++this.inFlight > this.sockets) {
      this.sockets = this.inFlight;
      grant.cold = true;
    }
    if (this.pending.push(grant) === 1) setImmediate(this.check);
  }

  /** The grant's attempt ended; `status` is set when a response arrived. */
  ended(grant: Grant, status: number | undefined): void {
    const now = performance.now();
    this.inFlight--;
    this.lastActive = now;
    const latency = now - grant.grantedAt;
    // Without an answer the request may have arrived any time until now.
    const fastest = status === undefined || this.samples < MIN_SAMPLES ? 0 : this.fastest;
    const extra = latency - fastest;
    grant.extendTo(grant.cold ? extra : Math.min(extra, grant.allowanceMs() + this.stallMs(now)));
    // A cold attempt's latency includes opening its connection: not a sample of the fastest.
    if (grant.cold || status === undefined) return;
    this.samples++;
    if (latency < this.fastest) this.fastest = latency;
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
