/**
 * A strict sliding-window gate over a Bottleneck limiter.
 *
 * Bottleneck's `maxConcurrent` is the number of calls allowed per window, and every granted call
 * holds its slot for the window length plus a margin, counted from the moment it was granted. So
 * at most `maxConcurrent` calls start in any window, the first `maxConcurrent` start at once (the
 * physical burst the server allows), and with Bottleneck's Redis datastore the count of held
 * slots is shared by every process.
 *
 * What the server counts is arrivals, not starts. A call can reach the server late (a new
 * connection, a busy event loop) while the call that takes its slot next arrives promptly, and
 * the two then fall in one window. So a call that was slower than the fastest recent call holds
 * its slot longer by the difference: if call A took `latency` and the fastest call took `fastest`,
 * A arrived at most `latency − fastest` later than a fastest call would have, and the next call
 * takes at least the fastest forward trip too. Latency that is the same for every call costs
 * nothing; only variance does.
 *
 * Why not `minTime` or a per-second reservoir: `minTime: 50` lets 21 calls into some 1-s windows,
 * and a reservoir refreshed each second lets a burst at the end of one second and another at the
 * start of the next through (35 seen in a window).
 */
import type Bottleneck from "bottleneck";

/** Given to a caller with its slot: call `done()` once the response (or an error) is in. */
export interface Permit {
  done(): void;
}

/** A call not answered this long after its window is assumed to have arrived long ago. */
const MAX_ANSWER_WAIT_MS = 30_000;
/** How many recent latencies the fastest one is taken from. */
const LATENCY_SAMPLES = 64;

export class SlidingWindowGate {
  /** Hold timers of granted calls; referenced only while callers wait, see `updateRefs`. */
  private readonly holds = new Set<NodeJS.Timeout>();
  private waiting = 0;
  private readonly latencies: number[] = [];
  private nextSample = 0;
  private readonly jobOptions: Bottleneck.JobOptions;

  constructor(
    private readonly limiter: Bottleneck,
    private readonly holdMs: number,
    /** Redis mode: slots of a process that died mid-hold are freed by Redis after this long. */
    expirationMs?: number,
  ) {
    this.jobOptions = expirationMs === undefined ? {} : { expiration: expirationMs };
  }

  /** The longest a slot can be held: Redis must not free it sooner. */
  static maxHoldMs(holdMs: number): number {
    return holdMs + MAX_ANSWER_WAIT_MS;
  }

  /**
   * Resolves when the caller may send one request; rejects with the signal's reason if it aborts
   * first. An aborted call gives its slot back as soon as Bottleneck reaches it (no request sent).
   */
  acquire(signal?: AbortSignal): Promise<Permit> {
    signal?.throwIfAborted();
    return new Promise<Permit>((resolve, reject) => {
      let settled = false;
      const stopWaiting = () => {
        this.waiting--;
        this.updateRefs();
      };
      const onAbort = () => {
        settled = true;
        stopWaiting();
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiting++;
      this.updateRefs();
      this.limiter
        .schedule(this.jobOptions, () => {
          signal?.removeEventListener("abort", onAbort);
          if (settled) return Promise.resolve(); // aborted while queued: free the slot now
          settled = true;
          stopWaiting();
          const call = new GrantedCall();
          resolve(call);
          return this.hold(call);
        })
        .catch((error: unknown) => {
          signal?.removeEventListener("abort", onAbort);
          if (settled) return;
          settled = true;
          stopWaiting();
          reject(error);
        });
    });
  }

  /** Holds the slot for the window from the grant, plus the call's latency above the fastest. */
  private async hold(call: GrantedCall): Promise<void> {
    await this.sleep(this.holdMs).done;
    const cap = this.sleep(MAX_ANSWER_WAIT_MS);
    const answered = await Promise.race([call.answered, cap.done]);
    cap.cancel();
    if (answered === undefined) return;
    // With nothing to compare with yet, the first call holds its slot for its whole latency.
    const fastest = this.latencies.length === 0 ? 0 : Math.min(answered, ...this.latencies);
    this.record(answered);
    const extra = answered - fastest;
    const remaining = call.grantedAt + this.holdMs + extra - performance.now();
    if (remaining > 0) await this.sleep(remaining).done;
  }

  private record(latency: number): void {
    this.latencies[this.nextSample] = latency;
    this.nextSample = (this.nextSample + 1) % LATENCY_SAMPLES;
  }

  private sleep(ms: number): { done: Promise<undefined>; cancel(): void } {
    let timer: NodeJS.Timeout | undefined;
    const done = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => {
        this.holds.delete(timer!);
        resolve(undefined);
      }, ms);
    });
    this.holds.add(timer!);
    if (this.waiting === 0) timer!.unref();
    return {
      done,
      cancel: () => {
        clearTimeout(timer);
        this.holds.delete(timer!);
      },
    };
  }

  /**
   * A hold timer only keeps the process alive while some call is waiting for the slot it will
   * free: a process whose calls are all answered exits at once, one with queued calls does not
   * exit before they are sent.
   */
  private updateRefs(): void {
    for (const timer of this.holds) {
      if (this.waiting > 0) timer.ref();
      else timer.unref();
    }
  }
}

/** A call that holds a slot; `answered` resolves with its latency once `done()` is called. */
class GrantedCall implements Permit {
  readonly grantedAt = performance.now();
  private resolveAnswered!: (latency: number) => void;
  readonly answered = new Promise<number>((resolve) => (this.resolveAnswered = resolve));

  done(): void {
    this.resolveAnswered(performance.now() - this.grantedAt);
  }
}
