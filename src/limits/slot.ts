/**
 * A slot of the window, counted from when the server may have counted its request.
 *
 * A server counts a request when it reads it, some time between when it left this process and
 * when its answer came back. So a slot counts from its answer when the answer is prompt (an
 * upper bound on when the server counted it), and never later than a bound after its request
 * left, whether the answer is slow or never comes:
 *
 * - Its request left on a connection that already carried one: ALLOWANCE_MS after it left, plus
 *   what the service's 429s taught (margin.ts). That covers a server's own queue (a burst of 20
 *   is read one request after another), and a slow answer costs nothing more. That is where
 *   answers are slow by design: none of the last LATENCIES came within SLOW_MS, and they were
 *   sent over more than a window (not one burst that queued at the server). Elsewhere a late
 *   answer may be a request that waited on its way in (a burst queued at a server whose CPUs
 *   are all busy), so it counts from its answer, up to a window after it left.
 * - Its request opened its connection together with more than OPENING_BURST others (within
 *   OPENING_MS): one window after it left. A server whose accept queue is full (a listen backlog
 *   of 5 is Python's default) drops the handshake's last packet while this side already counts
 *   the connection as open, and reads the request only when this machine's TCP sends it again,
 *   200 ms then 400 ms later: the write is not when it is read. A connection opened alone
 *   cannot fill a queue of 5, and counts as a used one.
 * - No event tells when it left (a `fetch` that is not Node's; Bun, Deno): as a new connection
 *   opened when the slot was taken.
 *
 * When a request left is undici's `undici:client:sendHeaders` on `diagnostics_channel`,
 * published when its headers are written to its socket (after a connect that waited out a
 * dropped SYN). The request is tied to its slot by `undici:request:create`, published in the
 * async context of the `fetch` call that `Slot.sending` runs. A write counts from the check
 * phase after it, when this process lets anything else run (a server in this process, as in
 * tests, reads it no earlier).
 *
 * A slot's count time is committed before the slot could be taken again (HOLD_LEAD_MS before
 * its window ends, time for Redis to take the move). A request that has not left by then (its
 * connect still waiting) holds its slot, one window at a time, until it leaves or its attempt
 * ends. Nothing waits for an answer beyond the bounds above.
 */
import { requireBuiltin } from "../core/builtin.js";
import type { Slot } from "./types.js";

/** How long after it left a request on a used connection may still be counted by the server. */
export const ALLOWANCE_MS = 30;
/** A count time is committed this long before the slot could be taken again. */
export const HOLD_LEAD_MS = 250;
/** How many recent answers tell whether the server's answers are slow by design. */
const LATENCIES = 16;
/**
 * Answers all slower than this are slow by design (a launch, a large listing): on two cores at a
 * load of 20, local servers answered in 30–150 ms.
 */
export const SLOW_MS = 250;
/** New connections opened together, beyond which one may find a server's accept queue full. */
export const OPENING_BURST = 5;
/** New connections opened within this long of each other count as opened together. */
export const OPENING_MS = 100;

/** A slot as the limiter that gave it sees it: where the window counts it, and why. */
export abstract class CountedSlot implements Slot {
  /** Where the window counts it now (performance.now() time). */
  private at: number;
  /** Tied to a request by `undici:request:create`: its send will be seen. */
  tracked = false;
  /** When its request left, and whether it opened its connection. */
  private sentAt: number | undefined;
  private cold = false;
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
  /** How long after a request left on a used connection it may be counted (ALLOWANCE_MS and what was learned). */
  protected abstract allowanceMs(): number;
  /** The service answered 429 to this slot's request. */
  protected abstract rejected(): void;

  sending<T>(send: () => Promise<T>): Promise<T> {
    return track().run(this, send);
  }

  done(status?: number): void {
    if (this.ended) return;
    this.ended = true;
    this.pending.delete(this);
    const now = performance.now();
    if (status !== undefined && this.sentAt !== undefined && !this.cold) {
      this.pending.answered(this.sentAt, now - this.sentAt);
    }
    // Answered: the server counted it by now. Unanswered: it may have arrived any time until now.
    this.moveTo(Math.min(now, this.bound()));
    if (status === 429) this.rejected();
  }

  /** Its request's headers were written to its socket at `at`. */
  sent(at: number, cold: boolean): void {
    if (this.ended || this.sentAt !== undefined) return;
    this.sentAt = at;
    this.cold = cold;
    this.pending.add(this);
  }

  /** The latest the server may count its request: Infinity while a seen request has not left. */
  private bound(): number {
    if (this.sentAt !== undefined) {
      const allowance = this.allowanceMs();
      const late = this.cold || !this.pending.slowerThan(SLOW_MS, this.windowMs);
      return this.sentAt + (late ? this.windowMs : allowance);
    }
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

/**
 * The slots of one limiter still waiting for their count time, behind one timer; and how long
 * its recent answers took.
 */
export class PendingSlots {
  private readonly slots = new Set<CountedSlot>();
  /** The last LATENCIES answers: when each request left, and how long its answer took. */
  private readonly answers: { sentAt: number; ms: number }[] = [];
  private next = 0;
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

  /** A request that left at `sentAt` on a used connection was answered `ms` later. */
  answered(sentAt: number, ms: number): void {
    this.answers[this.next] = { sentAt, ms };
    this.next = (this.next + 1) % LATENCIES;
  }

  /** Whether the last LATENCIES answers all took longer than `ms`, sent over `windowMs` or more. */
  slowerThan(ms: number, windowMs: number): boolean {
    if (this.answers.length < LATENCIES) return false;
    let first = Infinity;
    let last = -Infinity;
    for (const answer of this.answers) {
      if (answer.ms <= ms) return false;
      first = Math.min(first, answer.sentAt);
      last = Math.max(last, answer.sentAt);
    }
    return last - first >= windowMs;
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
  /** Sockets that have carried a request: a request on any other opened its connection. */
  const used = new WeakSet<object>();
  /** When the latest new connections carried their first request, oldest first. */
  let opened: number[] = [];
  let sends: [CountedSlot, boolean][] = [];
  const stamp = () => {
    const now = performance.now();
    const sent = sends;
    sends = [];
    for (const [slot, cold] of sent) slot.sent(now, cold);
  };
  channels.subscribe("undici:request:create", (message) => {
    const slot = current.getStore();
    const { request } = message as { request: object };
    if (slot === undefined || slot.tracked) return;
    slot.tracked = true;
    slots.set(request, slot);
  });
  channels.subscribe("undici:client:sendHeaders", (message) => {
    const { request, socket } = message as { request: object; socket?: object };
    let cold = socket === undefined;
    if (socket !== undefined && !used.has(socket)) {
      used.add(socket);
      const now = performance.now();
      opened = opened.filter((at) => at > now - OPENING_MS);
      cold = opened.push(now) > OPENING_BURST;
    }
    const slot = slots.get(request);
    if (slot !== undefined && sends.push([slot, cold]) === 1) setImmediate(stamp);
  });
  tracking = current;
  return current;
}
