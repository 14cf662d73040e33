/**
 * A strict sliding-window gate over a Bottleneck limiter.
 *
 * Bottleneck's `maxConcurrent` is the window size and every granted call holds its slot for the
 * window length (plus a small margin for jitter between our clock and the server's) counted from
 * the moment it was granted, whatever the response time. So at most `maxConcurrent` calls start in
 * any window, the first `maxConcurrent` start at once (the physical burst the server allows), and
 * with Bottleneck's Redis datastore the count of held slots is shared by every process.
 *
 * Why not `minTime` or a per-second reservoir: `minTime: 50` lets 21 calls into some 1-s windows,
 * and a reservoir refreshed each second lets a burst at the end of one second and another at the
 * start of the next through (35 seen in a window).
 */
import type Bottleneck from "bottleneck";

export class SlidingWindowGate {
  /** Hold timers of granted calls; referenced only while callers wait, see `updateRefs`. */
  private readonly holds = new Set<NodeJS.Timeout>();
  private waiting = 0;
  private readonly jobOptions: Bottleneck.JobOptions;

  constructor(
    private readonly limiter: Bottleneck,
    private readonly holdMs: number,
    /** Redis mode: slots of a process that died mid-hold are freed by Redis after this long. */
    expirationMs?: number,
  ) {
    this.jobOptions = expirationMs === undefined ? {} : { expiration: expirationMs };
  }

  /**
   * Resolves when the caller may send one request; rejects with the signal's reason if it aborts
   * first. An aborted call gives its slot back as soon as Bottleneck reaches it (no request sent).
   */
  acquire(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    return new Promise<void>((resolve, reject) => {
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
          resolve();
          return this.hold();
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

  private hold(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.holds.delete(timer);
        resolve();
      }, this.holdMs);
      this.holds.add(timer);
      if (this.waiting === 0) timer.unref();
    });
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
