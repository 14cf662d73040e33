/**
 * A slot of the window, counted from when the server may have counted its request.
 *
 * A server counts a request when it reads it, some time between when it left this process and
 * when its answer came back. So a slot counts from its answer (an upper bound on when the server
 * counted it), and never later than one window after its request left, whether the answer is
 * slow or never comes: a slow answer or none holds a slot at most one window more. Nothing
 * shorter is safe: a busy server reads a request well after it was written (a gateway's stamping
 * process on busy cores; an accept queue full, past which the server reads a request only when
 * this machine's TCP sends the handshake's last packet again, 200 ms then 400 ms later), and
 * neither shows on this side.
 *
 * When a request left is undici's `undici:client:sendHeaders` on `diagnostics_channel`,
 * published when its headers are written to its socket (after a connect that waited out a
 * dropped SYN). The request is tied to its slot by `undici:request:create`, published in the
 * async context of the `fetch` call that `Slot.sending` runs. A write counts from the check
 * phase after it, when this process lets anything else run (a server in this process, as in
 * tests, reads it no earlier). No event tells when it left (a `fetch` that is not Node's; Bun,
 * Deno): the slot counts at the latest one window after it was taken.
 *
 * A slot's count time is committed before the slot could be taken again (HOLD_LEAD_MS before
 * its window ends, time for Redis to take the move). A request that has not left by then (its
 * connect still waiting) holds its slot, one window at a time, until it leaves or its attempt
 * ends.
 */
import { requireBuiltin } from "../core/builtin.js";
import type { Slot } from "./types.js";

/** A count time is committed this long before the slot could be taken again. */
const HOLD_LEAD_MS = 250;

/** A slot as the limiter that gave it sees it: where the window counts it, and why. */
export abstract class CountedSlot implements Slot {
  /** Where the window counts it now (performance.now() time). */
  private at: number;
  /** Tied to a request by `undici:request:create`: its send will be seen. */
  tracked = false;
  /** When its request left. */
  private sentAt: number | undefined;
  private ended = false;

  constructor(
    private readonly pending: PendingSlots,
    /** performance.now() at (or just before) the slot was taken. */
    readonly takenAt: number,
    /** The window it was taken in (1 s plus the margin), in ms. */
    readonly windowMs: number,
  ) {
    this.at = takenAt;
    pending.add(this);
  }

  /** Moves where the window counts this slot, from `from` to `to`. */
  protected abstract move(from: number, to: number): void;

  sending<T>(send: () => Promise<T>): Promise<T> {
    return track().run(this, send);
  }

  done(): void {
    if (this.ended) return;
    this.ended = true;
    this.pending.delete(this);
    // Answered: the server counted it by now. Unanswered: it may have arrived any time until now.
    this.moveTo(Math.min(performance.now(), this.bound()));
  }

  /** Its request's headers were written to its socket at `at`. */
  sent(at: number): void {
    if (this.ended || this.sentAt !== undefined) return;
    this.sentAt = at;
    this.pending.add(this);
  }

  /** The latest the server may count its request: Infinity while a seen request has not left. */
  private bound(): number {
    if (this.sentAt !== undefined) return this.sentAt + this.windowMs;
    return this.tracked ? Infinity : this.takenAt + this.windowMs;
  }

  /** When its count time must be committed: at its bound, or before the slot frees. */
  dueAt(): number {
    return Math.min(this.bound(), this.at + this.windowMs - HOLD_LEAD_MS);
  }

  /** Commits its count time at `now`; true when it is final (no answer will change it but done). */
  commit(now: number): boolean {
    const bound = this.bound();
    if (bound === Infinity) {
      // Not left yet: held for one more window.
      this.moveTo(now + HOLD_LEAD_MS);
      return false;
    }
    this.moveTo(bound);
    return true;
  }

  private moveTo(to: number): void {
    if (to === this.at) return;
    this.move(this.at, to);
    this.at = to;
  }
}

/** The slots of one limiter still waiting for their count time, behind one timer. */
export class PendingSlots {
  private readonly slots = new Set<CountedSlot>();
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  private readonly fire = () => {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = performance.now();
    for (const slot of this.slots) {
      if (slot.dueAt() <= now && slot.commit(now)) this.slots.delete(slot);
    }
    this.arm();
  };

  add(slot: CountedSlot): void {
    this.slots.add(slot);
    if (slot.dueAt() < this.timerAt) this.arm();
  }

  delete(slot: CountedSlot): void {
    this.slots.delete(slot);
  }

  private arm(): void {
    let at = Infinity;
    for (const slot of this.slots) at = Math.min(at, slot.dueAt());
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

type Tracking = import("node:async_hooks").AsyncLocalStorage<CountedSlot>;
let tracking: Tracking | undefined;

/** Subscribes to undici's events once, at the first request sent with a slot. */
function track(): Tracking {
  if (tracking) return tracking;
  const { AsyncLocalStorage } = requireBuiltin(
    "node:async_hooks",
  ) as typeof import("node:async_hooks");
  const channels = requireBuiltin(
    "node:diagnostics_channel",
  ) as typeof import("node:diagnostics_channel");
  const current = new AsyncLocalStorage<CountedSlot>();
  const slots = new WeakMap<object, CountedSlot>();
  let sends: CountedSlot[] = [];
  const stamp = () => {
    const now = performance.now();
    const sent = sends;
    sends = [];
    for (const slot of sent) slot.sent(now);
  };
  channels.subscribe("undici:request:create", (message) => {
    const slot = current.getStore();
    const { request } = message as { request: object };
    if (slot === undefined || slot.tracked) return;
    slot.tracked = true;
    slots.set(request, slot);
  });
  channels.subscribe("undici:client:sendHeaders", (message) => {
    const { request } = message as { request: object };
    const slot = slots.get(request);
    if (slot !== undefined && sends.push(slot) === 1) setImmediate(stamp);
  });
  tracking = current;
  return current;
}
