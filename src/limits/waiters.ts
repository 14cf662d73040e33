/**
 * The FIFO of calls waiting for a slot. A doubly linked list, so a call whose signal aborts or
 * whose timeout runs out leaves it in O(1) and holds nothing afterwards; each waiter is its own
 * abort listener (no closure per call), which keeps a queued call to a few hundred bytes.
 */
import { offAbort, onAbort } from "../core/abort.js";
import { MAX_TIMER_MS } from "../core/time.js";
import type { CallInfo } from "../errors/seqera-api-error.js";
import { waitTimeoutError } from "./errors.js";

export class Waiter<P> {
  prev: Waiter<P> | undefined;
  next: Waiter<P> | undefined;
  /** False once resolved, rejected or removed. */
  queued = true;
  timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly queue: WaiterQueue<P>,
    readonly call: CallInfo,
    readonly signal: AbortSignal | undefined,
    /** performance.now() when it was queued. */
    readonly since: number,
    private readonly settle: (slot: P) => void,
    private readonly fail: (reason: unknown) => void,
  ) {}

  resolve(slot: P): void {
    this.stop();
    this.settle(slot);
  }

  reject(reason: unknown): void {
    this.stop();
    this.fail(reason);
  }

  /** The signal aborted: leave the queue at once, holding no slot. */
  handleEvent(): void {
    this.leave(this.signal!.reason);
  }

  /** Leaves the queue, rejected with `reason`, if still in it. */
  leave(reason: unknown): void {
    if (!this.queued) return;
    this.queue.remove(this);
    this.reject(reason);
    this.queue.onLeave();
  }

  private stop(): void {
    if (this.signal) offAbort(this.signal, this);
    clearTimeout(this.timer);
  }
}

export class WaiterQueue<P> {
  head: Waiter<P> | undefined;
  private tail: Waiter<P> | undefined;
  size = 0;

  /**
   * `onLeave` is called after a waiter aborted or timed out, e.g. to stop a timer nobody waits
   * for any more.
   */
  constructor(readonly onLeave: () => void) {}

  /**
   * Queues a call; the promise settles when it gets a slot, aborts, has waited `timeoutMs` (0 or
   * beyond what a timer holds: no limit; a TimeoutError, the call unsent) or is rejected.
   */
  push(
    call: CallInfo,
    signal: AbortSignal | undefined,
    timeoutMs: number,
    now: number,
  ): Promise<P> {
    return new Promise<P>((resolve, reject) => {
      const waiter = new Waiter<P>(this, call, signal, now, resolve, reject);
      waiter.prev = this.tail;
      if (this.tail) this.tail.next = waiter;
      else this.head = waiter;
      this.tail = waiter;
      this.size++;
      if (signal) onAbort(signal, waiter);
      if (timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS) {
        waiter.timer = setTimeout(
          () => waiter.leave(waitTimeoutError(call, timeoutMs, performance.now() - now)),
          timeoutMs,
        );
      }
    });
  }

  shift(): Waiter<P> | undefined {
    const waiter = this.head;
    if (waiter) this.remove(waiter);
    return waiter;
  }

  remove(waiter: Waiter<P>): void {
    if (!waiter.queued) return;
    waiter.queued = false;
    if (waiter.prev) waiter.prev.next = waiter.next;
    else this.head = waiter.next;
    if (waiter.next) waiter.next.prev = waiter.prev;
    else this.tail = waiter.prev;
    waiter.prev = waiter.next = undefined;
    this.size--;
  }

  /** Rejects every queued call, in order. */
  rejectAll(reason: (waiter: Waiter<P>) => unknown): void {
    for (let waiter = this.shift(); waiter; waiter = this.shift()) waiter.reject(reason(waiter));
  }
}
