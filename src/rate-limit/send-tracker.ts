/**
 * What the limiter can learn about when its requests really left, which it needs because the
 * server counts arrivals, not grants.
 *
 * - A late send: the event loop did not run between the grant and the moment the request was
 *   handed to the socket (a busy or starved process, the first fetch loading undici). The check
 *   phase right after a grant shows it: when it runs later than LATE_SEND_MS after the grant,
 *   the grant is moved to then (`restamp`), so the slot counts from about when it was sent.
 * - A new connection: a request that cannot reuse a kept-alive socket first opens one (and on
 *   TLS shakes hands), so its way in is longer by an amount no margin is sized for. Such an
 *   attempt is "cold": when its answer comes, its grant is moved to the answer's time less the
 *   fastest recent round trip, the latest it can have arrived (the old rule, now only for these).
 *   The pool is modelled as undici keeps it: as many sockets as the most attempts in flight at
 *   once, all closed after KEEP_ALIVE_MS without traffic.
 */
export const KEEP_ALIVE_MS = 4_000;
const LATENCY_SAMPLES = 32;

export interface Tracked {
  /** When the grant counts from, in the limiter's clock. */
  readonly grantedAt: number;
  /** Moves this grant, if earlier, to `lagMs` before now in the limiter's state. */
  restamp(lagMs: number): void;
}

export class SendTracker<T extends Tracked> {
  private inFlight = 0;
  private sockets = 0;
  private lastActive = -Infinity;
  private readonly latencies = new Float64Array(LATENCY_SAMPLES).fill(Infinity);
  private nextSample = 0;
  private fastestLatency = 0;
  private pending: T[] = [];
  private readonly check = () => this.checkLate();

  /** `lateSendMs`: a grant whose check phase comes this much later is restamped. */
  constructor(private readonly lateSendMs: number) {}

  /** A grant was handed out at `now`; returns whether its attempt probably opens a connection. */
  granted(grant: T, now: number): boolean {
    if (now - this.lastActive > KEEP_ALIVE_MS) this.sockets = 0;
    this.lastActive = now;
    const cold = ++this.inFlight > this.sockets;
    if (cold) this.sockets = this.inFlight;
    if (this.pending.push(grant) === 1) setImmediate(this.check);
    return cold;
  }

  /** The attempt ended at `now`; `latency` is set when a response arrived. */
  ended(now: number, latency?: number): void {
    this.inFlight--;
    this.lastActive = now;
    if (latency === undefined) return;
    this.latencies[this.nextSample] = latency;
    this.nextSample = (this.nextSample + 1) % LATENCY_SAMPLES;
    // The minimum is recomputed over a small fixed array: cheaper than keeping it sorted.
    let fastest = Infinity;
    for (const sample of this.latencies) if (sample < fastest) fastest = sample;
    this.fastestLatency = fastest;
  }

  /** The fastest recent round trip (0 before any): a lower bound of the way in plus the way back. */
  fastest(): number {
    return this.fastestLatency;
  }

  private checkLate(): void {
    const now = performance.now();
    const grants = this.pending;
    this.pending = [];
    for (const grant of grants) {
      if (now - grant.grantedAt > this.lateSendMs) grant.restamp(0);
    }
  }
}
