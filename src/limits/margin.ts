/**
 * What the service's 429s taught, added to the allowance (slot.ts): how long after it left a
 * request whose answer is slow may still be counted by the server.
 *
 * A slot counts from its answer, or at most the allowance after its request left; what that
 * leaves unseen is a server (a proxy, a gateway's queue, a server's lock) that counts a request
 * later than the allowance and answers it later still. A 429 is the sign of it, so each widens
 * the learned part: it doubles, by at least WIDEN_STEP_MS, up to MAX_LEARNED_MS. It halves every
 * HALF_LIFE_MS without one: slowly, so that a run of minutes keeps what it learned rather than
 * paying a 429 to learn it again. A 429 on a call whose slot was taken before the last widening
 * was counted with the old allowance and says nothing new: one bad second widens once (the
 * epoch). Calls answered within the allowance count from their answers, so a 429 that has
 * nothing to do with the pace (a server's fault, another client on the token) costs them
 * nothing.
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

/** In process: the learned part of one token's allowance. */
export class Learned {
  private learned = 0;
  private learnedAt = 0;
  /** Counts widenings; a slot remembers the epoch it was taken in. */
  epoch = 0;

  ms(now: number): number {
    return decayed(this.learned, now - this.learnedAt);
  }

  /** A 429 on a call whose slot was taken in `epoch`. */
  widen(epoch: number, now: number): void {
    if (epoch !== this.epoch) return;
    this.learned = widened(this.ms(now));
    this.learnedAt = now;
    this.epoch++;
  }
}
