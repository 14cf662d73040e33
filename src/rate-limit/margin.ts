/**
 * The margin added to the 1-s window, learned from the service. Every grant counts for
 * 1000 ms + margin: enough for requests whose way in varies by up to the margin. The service's
 * 429 is the only sign that the way in varied more, so each 429 widens the learned part
 * (doubling it, at least by WIDEN_STEP_MS, at most to MAX_LEARNED_MS), and it halves every
 * HALF_LIFE_MS without one. A 429 on a call granted before the last widening says nothing new
 * (it was paced with the old margin) and is ignored: one bad second widens once.
 *
 * The Redis limiter keeps the same state in Redis, computed by the same rule in Lua
 * (redis-scripts.ts); the constants are shared from here.
 */
export const WIDEN_STEP_MS = 25;
export const MAX_LEARNED_MS = 1000;
export const HALF_LIFE_MS = 60_000;
/** Below this the learned part counts as gone. */
const FORGOTTEN_MS = 0.5;

export class AdaptiveMargin {
  private learned = 0;
  private learnedAt = 0;
  /** Counts widenings; a permit remembers the epoch it was granted in. */
  epoch = 0;

  /** `floorMs`: the configured `windowMarginMs`, the least margin ever used. */
  constructor(public floorMs: number) {}

  /** The window length at `now`: 1000 ms, the configured margin and the learned part. */
  windowMs(now: number): number {
    return 1000 + this.floorMs + this.learnedPart(now);
  }

  /** A 429 on a call granted in `epoch`. */
  widen(epoch: number, now: number): void {
    if (epoch !== this.epoch) return;
    this.learned = Math.min(MAX_LEARNED_MS, Math.max(WIDEN_STEP_MS, 2 * this.learnedPart(now)));
    this.learnedAt = now;
    this.epoch++;
  }

  private learnedPart(now: number): number {
    if (this.learned === 0) return 0;
    const part = this.learned * 2 ** (-(now - this.learnedAt) / HALF_LIFE_MS);
    if (part < FORGOTTEN_MS) this.learned = 0;
    return part < FORGOTTEN_MS ? 0 : part;
  }
}
