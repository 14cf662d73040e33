/**
 * The FIFO of calls waiting for a slot. A doubly linked list, so a call whose signal aborts
 * leaves it in O(1) and holds nothing afterwards; each waiter is its own abort listener (no
 * closure per call), which keeps a queued call to a few hundred bytes.
 */
import { offAbort, onAbort } from "../core/abort.js";
import type { CallInfo } from "../errors/seqera-api-error.js";

export class Waiter<P> {
  prev: Waiter<P> | undefined;
  next: Waiter<P> | undefined;
  /** False once resolved, rejected or removed. */
  queued = true;

  constructor(
    private readonly queue: WaiterQueue<P>,
    readonly call: CallInfo,
    readonly signal: AbortSignal | undefined,
    /** Who queued it: close() of one limiter settles only its own calls. */
    readonly owner: object,
    /** performance.now() when it was queued. */
    readonly since: number,
    private readonly settle: (permit: P) => void,
    private readonly fail: (reason: unknown) => void,
  ) {}

  resolve(permit: P): void {
    if (this.signal) offAbort(this.signal, this);
    this.settle(permit);
  }

  reject(reason: unknown): void {
    if (this.signal) offAbort(this.signal, this);
    this.fail(reason);
  }

  /** The signal aborted: leave the queue at once, holding no slot. */
  handleEvent(): void {
    if (!this.queued) return;
    this.queue.remove(this);
    this.reject(this.signal!.reason);
    this.queue.onAbort();
  }
}

export class WaiterQueue<P> {
  head: Waiter<P> | undefined;
  private tail: Waiter<P> | undefined;
  size = 0;

  /** Called after an aborted waiter left, e.g. to stop a timer nobody waits for any more. */
  constructor(readonly onAbort: () => void) {}

  /** Queues a call; the promise settles when it gets a slot, aborts or is rejected. */
  push(call: CallInfo, signal: AbortSignal | undefined, owner: object, now: number): Promise<P> {
    return new Promise<P>((resolve, reject) => {
      const waiter = new Waiter<P>(this, call, signal, owner, now, resolve, reject);
      waiter.prev = this.tail;
      if (this.tail) this.tail.next = waiter;
      else this.head = waiter;
      this.tail = waiter;
      this.size++;
      if (signal) onAbort(signal, waiter);
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

  /** Rejects, in order, every queued call `owner` made (all of them without an owner). */
  rejectAll(reason: (waiter: Waiter<P>) => unknown, owner?: object): void {
    for (let waiter = this.head; waiter;) {
      const next = waiter.next;
      if (owner === undefined || waiter.owner === owner) {
        this.remove(waiter);
        waiter.reject(reason(waiter));
      }
      waiter = next;
    }
  }
}
