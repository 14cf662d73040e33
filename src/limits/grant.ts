/**
 * A granted slot, counted from when its request leaves.
 *
 * The server counts a request when it arrives; a grant is made earlier, before the request has
 * a connection. Node's fetch (undici) publishes `undici:client:sendHeaders` on
 * `diagnostics_channel` when a request's headers are written to its socket: after a connect
 * that waited out a dropped SYN, before any answer. The request is tied to its grant by the
 * `undici:request:create` event, published in the async context of the `fetch` call that
 * `Permit.sending` runs; the grant is then moved to when its request left: to the check phase
 * after the write, when this process lets anything else run (a server on this machine, as in
 * tests, reads it no earlier). Nothing waits for an answer: a slow or missing answer holds no
 * slot.
 *
 * A grant whose request has not left HOLD_LEAD_MS before its slot would free (a connect still
 * waiting) is counted from one window after its grant, then from when it leaves if that is
 * later: a request that never leaves costs other calls at most one window. Where no event comes
 * (a `fetch` option that is not Node's, Bun, Deno, a dispatcher that does not publish) the same
 * rule holds with the answer in place of the send: the grant counts from when it was made, or
 * from one window later when its request is unanswered by then.
 */
import { requireBuiltin } from "../core/builtin.js";
import type { Permit } from "./types.js";

/**
 * How long before its slot would free an unsent grant is held: time for Redis to take the hold
 * (a round trip, a few ms on a loaded machine) before another process could be granted it.
 */
const HOLD_LEAD_MS = 250;

/** A granted slot, as the limiter that made it sees it. */
export abstract class Grant implements Permit {
  /** Tied to a request by `undici:request:create`: its send will be seen. */
  tracked = false;
  /** The request left, or the attempt ended: nothing to hold. */
  private settled = false;
  private extendedBy = 0;
  private ended = false;

  constructor(
    private readonly holds: Holds,
    /** performance.now() at (or just before) the grant. */
    readonly grantedAt: number,
    /** The window this grant was made in (1 s plus margins), in ms. */
    readonly windowMs: number,
  ) {
    holds.add(this);
  }

  /** Moves this grant `ms` later in the limiter's state. */
  protected abstract move(ms: number): void;
  /** The service answered 429 to this grant's request. */
  protected abstract rejected(): void;

  sending<T>(send: () => Promise<T>): Promise<T> {
    return track().run(this, send);
  }

  done(status?: number): void {
    if (this.ended) return;
    this.ended = true;
    this.settle();
    if (status === 429) this.rejected();
  }

  /** The request's headers were written to its socket at `at`. */
  sent(at: number): void {
    this.settle();
    this.extendTo(at - this.grantedAt);
  }

  /** Still unsent near the end of its window: counted from one window after the grant. */
  hold(): void {
    this.settled = true;
    this.extendTo(this.windowMs);
  }

  /** When an unsent grant is held. */
  holdAt(): number {
    return this.grantedAt + this.windowMs - HOLD_LEAD_MS;
  }

  private settle(): void {
    if (this.settled) return;
    this.settled = true;
    this.holds.delete(this);
  }

  private extendTo(ms: number): void {
    if (ms <= this.extendedBy) return;
    this.move(ms - this.extendedBy);
    this.extendedBy = ms;
  }
}

/** The grants of one limiter whose request has not left, behind one timer for the earliest. */
export class Holds {
  private readonly unsent = new Set<Grant>();
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  private readonly fire = () => {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = performance.now();
    for (const grant of this.unsent) {
      if (grant.holdAt() > now) continue;
      this.unsent.delete(grant);
      grant.hold();
    }
    this.arm();
  };

  add(grant: Grant): void {
    this.unsent.add(grant);
    if (grant.holdAt() < this.timerAt) this.arm();
  }

  delete(grant: Grant): void {
    this.unsent.delete(grant);
  }

  private arm(): void {
    let at = Infinity;
    for (const grant of this.unsent) at = Math.min(at, grant.holdAt());
    if (at === this.timerAt) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    // The attempts keep the process alive, not this timer.
    this.timer =
      at === Infinity
        ? undefined
        : setTimeout(this.fire, Math.max(1, Math.ceil(at - performance.now()))).unref();
  }
}

type Tracking = import("node:async_hooks").AsyncLocalStorage<Grant>;
let tracking: Tracking | undefined;

/** Subscribes to undici's events once, at the first request sent with a permit. */
function track(): Tracking {
  if (tracking) return tracking;
  const { AsyncLocalStorage } = requireBuiltin(
    "node:async_hooks",
  ) as typeof import("node:async_hooks");
  const channels = requireBuiltin(
    "node:diagnostics_channel",
  ) as typeof import("node:diagnostics_channel");
  const current = new AsyncLocalStorage<Grant>();
  const grants = new WeakMap<object, Grant>();
  // A request written now reaches a server in this process (or a proxy's queue) once this
  // process lets it run: sends count from the check phase after them, one immediate per turn.
  let sends: Grant[] = [];
  const stamp = () => {
    const now = performance.now();
    const sent = sends;
    sends = [];
    for (const grant of sent) grant.sent(now);
  };
  channels.subscribe("undici:request:create", (message) => {
    const grant = current.getStore();
    const { request } = message as { request: object };
    if (grant === undefined || grant.tracked) return;
    grant.tracked = true;
    grants.set(request, grant);
  });
  channels.subscribe("undici:client:sendHeaders", (message) => {
    const grant = grants.get((message as { request: object }).request);
    if (grant !== undefined && sends.push(grant) === 1) setImmediate(stamp);
  });
  tracking = current;
  return current;
}
