/**
 * The margin learned from the service's 429s, added to the window on top of `windowMarginMs`.
 *
 * Grants are counted from when their request left (grant.ts); what is left unseen is the way
 * from the socket to the server's own count (a proxy, a gateway's queue, a server's lock). A
 * 429 is the sign that this took longer than the margin allowed, so each widens the learned
 * part: it doubles, by at least WIDEN_STEP_MS, up to MAX_LEARNED_MS. It halves every
 * HALF_LIFE_MS without one: slowly, so that a run of minutes keeps what it learned rather than
 * paying a 429 to learn it again. A 429 on a call granted before the last widening was paced
 * with the old margin and says nothing new: one bad second widens once (the epoch).
 *
 * The Redis limiter stores the value and its time in Redis (redis-scripts.ts) and computes with
 * these same functions.
 */
export const WIDEN_STEP_MS = 50;
export const MAX_LEARNED_MS = 1000;
export const HALF_LIFE_MS = 600_000;

/** The learned part `ageMs` after it was set to `learned`. */
export function decayed(learned: number, ageMs: number): number {
  return learned * 2 ** (-Math.max(0, ageMs) / HALF_LIFE_MS);
}

/** The learned part after a 429, from its value `current`. */
export function widened(current: number): number {
  return Math.min(MAX_LEARNED_MS, Math.max(WIDEN_STEP_MS, 2 * current));
}

/** In process: the learned part of one token's margin. */
export class Learned {
  private learned = 0;
  private learnedAt = 0;
  /** Counts widenings; a grant remembers the epoch it was made in. */
  epoch = 0;

  ms(now: number): number {
    return decayed(this.learned, now - this.learnedAt);
  }

  /** A 429 on a call granted in `epoch`. */
  widen(epoch: number, now: number): void {
    if (epoch !== this.epoch) return;
    this.learned = widened(this.ms(now));
    this.learnedAt = now;
    this.epoch++;
  }
}
