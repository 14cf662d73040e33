/**
 * A slot of the window, counted from when the server may have counted its request.
 *
 * A server counts a request when it reads it, some time between when it left this process and
 * when its answer came back. A request that left within CONNECT_MS of its slot (on a connection
 * open already, or made at once) is read soon after it was written: the slot counts from its
 * answer if that comes within SEND_ALLOWANCE_MS, else from SEND_ALLOWANCE_MS after the request
 * left, however slow the answer, or if none comes. The allowance covers a busy server's reading
 * (an event loop, a gateway's parsing processes on busy cores); the window's spacing
 * (limiter.ts) keeps it from meeting bursts, which a server reads one after the other.
 *
 * A request that left later waited for its connection: to a far server, or to one whose accept
 * queue was full (its SYN dropped, sent again a second later). A full accept queue may also take
 * a connection without reading from it: the server reads the request only when this machine's
 * TCP sends it again (200 ms, then 400 ms later), which nothing on this side shows. Such a slot
 * counts from its answer if that comes before the slot could be taken again, else (an answer
 * slow by design) from SEND_ALLOWANCE_MS after the request left. No slot waits for its answer
 * past its window.
 *
 * When a request left is told on `diagnostics_channel`: by undici's `undici:client:sendHeaders`
 * for Node's fetch, published when its headers are written to its socket (after a connect that
 * waited out a dropped SYN), and by the client's own transport's REQUEST_SENT when the request
 * has been handed to the system (core/request-events.ts). The request is tied to its slot by
 * `undici:request:create` or REQUEST_CREATED, published in the async context of the `fetch`
 * call that `Slot.sending` runs. A write counts from the check
 * phase after it, when this process lets anything else run (a server in this process, as in
 * tests, reads it no earlier). No event tells when it left (a `fetch` that is not Node's; Bun,
 * Deno): the slot counts at the latest one window after it was taken.
 *
 * A slot's count time is committed before the slot could be taken again (HOLD_LEAD_MS before
 * its window ends, time for Redis to take the move). A request that has not left by then (its
 * connect still waiting) holds its slot, one window at a time, until it leaves or its attempt
 * ends.
 *
 * A server may read requests long after they were written without being flooded: a fixed pool
 * of workers (Gunicorn, uWSGI, Puma, Tomcat, PHP-FPM) reads a queued request only when a worker
 * frees, 100–370 ms later; so may a server on a starved CPU. Nothing tells before its 429. A 429
 * teaches it: for WIDENED_MS after the last one, the token's slots (in Redis, of every process)
 * count from their answers, up to a window after their requests left, and a count already
 * final moves to its answer if that comes later.
 */
import { requireBuiltin } from "../core/builtin.js";
import { REQUEST_CREATED, REQUEST_SENT } from "../core/request-events.js";
import { Alarm } from "./alarm.js";
import type { Slot } from "./types.js";

/** A count time is committed this long before the slot could be taken again. */
const HOLD_LEAD_MS = 250;
/** The latest a server is taken to read a request after it was written to its socket. */
const SEND_ALLOWANCE_MS = 35;
/**
 * A request that left this soon after its slot was taken did not wait for a connection whose SYN
 * a full accept queue dropped (sent again a second later).
 */
const CONNECT_MS = 500;
/** Consecutive slots of a token are taken at least this long apart (limiter.ts). */
const SPACING_MS = 3;
/**
 * After a 429, the token's slots count from their answers (up to a window after their requests
 * left) for this long, from the last 429: its server read some requests later than
 * SEND_ALLOWANCE_MS after they were written.
 */
export const WIDENED_MS = 60_000;

/**
 * How far apart consecutive slots are taken: SPACING_MS, or less at rates where that would
 * cost more than a quarter of the window.
 */
export function spacingMs(perSecond: number, windowMs: number): number {
  return Math.min(SPACING_MS, windowMs / (4 * perSecond));
}

/** A slot as the limiter that gave it sees it: where the window counts it, and why. */
export abstract class CountedSlot implements Slot {
  /** Where the window counts it now (performance.now() time). */
  private at: number;
  /** Tied to a request by `undici:request:create`: its send will be seen. */
  tracked = false;
  /** When its request left. */
  private sentAt: number | undefined;
  /** Its count time is final: no answer changes it. */
  private final = false;
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

  done(status?: number): void {
    if (this.ended) return;
    this.ended = true;
    if (status === 429) this.pending.refused();
    this.pending.delete(this);
    // Answered: the server read it by now. Unanswered: it may have read it any time until now.
    const at = Math.min(performance.now(), this.bound());
    // Since a 429, a count time already final moves too: later, to its answer.
    if (!this.final || (this.pending.widened() && at > this.at)) this.moveTo(at);
  }

  /** Its request's headers were written to its socket at `at`. */
  sent(at: number): void {
    if (this.ended || this.sentAt !== undefined) return;
    this.sentAt = at;
    // Left after the time it was committed to (sent long after its slot came): counted again.
    if (at > this.at) this.final = false;
    this.pending.add(this);
  }

  /**
   * The latest the server may read its request, as far as is known before its answer: Infinity
   * while a seen request has not left, or left late (its answer tells).
   */
  private bound(): number {
    if (this.sentAt === undefined) return this.tracked ? Infinity : this.takenAt + this.windowMs;
    return this.sentAt - this.takenAt < CONNECT_MS ? this.sentAt + this.allowance() : Infinity;
  }

  /** How long after its request left the server is taken to have read it, at the latest. */
  private allowance(): number {
    return this.pending.widened() ? this.windowMs : SEND_ALLOWANCE_MS;
  }

  /** When its count time must be committed: at its bound, or before the slot frees. */
  dueAt(): number {
    return Math.min(this.bound(), this.at + this.windowMs - HOLD_LEAD_MS);
  }

  /** Commits its count time at `now`; true when it is final. */
  commit(now: number): boolean {
    const bound = this.bound();
    if (bound !== Infinity) this.moveTo(bound);
    // Left late, and unanswered this long: an answer slow by design.
    else if (this.sentAt !== undefined) this.moveTo(this.sentAt + this.allowance());
    else {
      // Not left yet: held for one more window.
      this.moveTo(now + HOLD_LEAD_MS);
      return false;
    }
    this.final = true;
    return true;
  }

  private moveTo(to: number): void {
    if (to === this.at) return;
    this.move(this.at, to);
    this.at = to;
  }
}

/**
 * The slots of one limiter still waiting for their count time, behind one timer; and what the
 * token's 429s taught them.
 */
export class PendingSlots {
  private readonly slots = new Set<CountedSlot>();
  /** Until when (performance.now()) slots count from their answers. */
  widenedUntil = -Infinity;

  /** `onRefused`: a 429 came, to tell other processes. */
  constructor(private readonly onRefused?: () => void) {}

  widened(): boolean {
    return performance.now() < this.widenedUntil;
  }

  /** A request was answered 429: slots count from their answers for WIDENED_MS. */
  refused(): void {
    this.widenedUntil = performance.now() + WIDENED_MS;
    this.onRefused?.();
  }

  // The attempts keep the process alive, not this timer.
  private readonly alarm = new Alarm(() => {
    const now = performance.now();
    for (const slot of this.slots) {
      if (slot.dueAt() <= now && slot.commit(now)) this.slots.delete(slot);
    }
    this.arm();
  }, false);

  add(slot: CountedSlot): void {
    this.slots.add(slot);
    if (slot.dueAt() < this.alarm.at) this.arm();
  }

  delete(slot: CountedSlot): void {
    this.slots.delete(slot);
  }

  private arm(): void {
    let at = Infinity;
    for (const slot of this.slots) at = Math.min(at, slot.dueAt());
    this.alarm.set(at);
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
  const requests = new WeakMap<object, CountedSlot>();
  let sends: CountedSlot[] = [];
  const stamp = () => {
    const now = performance.now();
    const sent = sends;
    sends = [];
    for (const slot of sent) slot.sent(now);
  };
  const created = (message: unknown) => {
    const slot = current.getStore();
    const { request } = message as { request: object };
    if (slot === undefined || slot.tracked) return;
    slot.tracked = true;
    requests.set(request, slot);
  };
  const sent = (message: unknown) => {
    const slot = requests.get((message as { request: object }).request);
    if (slot !== undefined && sends.push(slot) === 1) setImmediate(stamp);
  };
  // Node's fetch (undici), and the client's own transport (http/node-fetch.ts).
  channels.subscribe("undici:request:create", created);
  channels.subscribe("undici:client:sendHeaders", sent);
  channels.subscribe(REQUEST_CREATED, created);
  channels.subscribe(REQUEST_SENT, sent);
  tracking = current;
  return current;
}
