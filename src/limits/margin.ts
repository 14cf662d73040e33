/**
 * How much of a call's extra latency counts as a late arrival: the allowance, learned from the
 * service.
 *
 * A grant counts from when it was made, but the server counts the request when it arrives. When
 * an answer comes back, the call's latency above the fastest recent one is how much later than
 * a prompt request it may have arrived (no client can tell how much of it was the way in and
 * how much the way back), so its grant is moved later by that much, up to the allowance. A
 * request delayed on its way in by up to allowance + `windowMarginMs` is then counted right;
 * latency that is the same for every call costs nothing, and answers slow on the way back cost
 * at most the allowance per call.
 *
 * The allowance is BASE_ALLOWANCE_MS, plus LOAD_STEP_MS for each runnable process per CPU
 * beyond one (from the 1-minute load average): a process that waits its turn for a CPU sends
 * late, after the limiter could see, by amounts that grow with the queue for it (on 2 cores at
 * a load of 12, requests of six processes arrived up to 120 ms after their grants, where a quiet
 * machine shows a few ms). When the server shares the machine, as in tests, its own waits count
 * the same way.
 *
 * The service's 429 is the sign that a request was later than that, so each 429 widens the
 * allowance (the learned part doubles, by at least WIDEN_STEP_MS, up to MAX_LEARNED_MS), and the
 * learned part halves every HALF_LIFE_MS without one: slowly, so that a run of minutes keeps
 * what it learned rather than narrowing back and paying a 429 to learn it again. A 429 on a call
 * granted before the last widening says nothing new (it was paced with the old allowance) and is
 * ignored: one bad second widens once.
 *
 * The Redis limiter keeps the learned part in Redis, computed by the same rule in Lua
 * (redis-scripts.ts), with these constants.
 */
import { requireBuiltin } from "../core/builtin.js";

export const BASE_ALLOWANCE_MS = 15;
export const LOAD_STEP_MS = 25;
export const WIDEN_STEP_MS = 50;
export const MAX_LEARNED_MS = 1000;
export const HALF_LIFE_MS = 600_000;
/** Below this the learned part counts as gone. */
const FORGOTTEN_MS = 0.5;

export class Allowance {
  private learned = 0;
  private learnedAt = 0;
  /** Counts widenings; a permit remembers the epoch it was granted in. */
  epoch = 0;

  /** The allowance at `now`. */
  ms(now: number): number {
    return baseAllowanceMs(now) + this.learnedPart(now);
  }

  /** A 429 on a call granted in `epoch`. */
  widen(epoch: number, now: number): void {
    if (epoch !== this.epoch) return;
    this.learned = Math.min(MAX_LEARNED_MS, Math.max(WIDEN_STEP_MS, 2 * this.learnedPart(now)));
    this.learnedAt = now;
    this.epoch++;
  }

  /** The learned part, in ms. */
  learnedPart(now: number): number {
    if (this.learned === 0) return 0;
    const part = this.learned * 2 ** (-(now - this.learnedAt) / HALF_LIFE_MS);
    if (part >= FORGOTTEN_MS) return part;
    this.learned = 0;
    return 0;
  }
}

let load = { ratio: 1, at: -Infinity };

/** The allowance before any 429, for the machine's load, read at most once a second. */
export function baseAllowanceMs(now: number): number {
  if (now < load.at || now - load.at > 1000) {
    // os.loadavg() is [0, 0, 0] where there is no such figure (Windows): the base then.
    const os = requireBuiltin("node:os") as typeof import("node:os");
    load = { ratio: os.loadavg()[0]! / os.availableParallelism(), at: now };
  }
  return BASE_ALLOWANCE_MS + LOAD_STEP_MS * Math.max(0, load.ratio - 1);
}
