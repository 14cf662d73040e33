import { ConfigurationError } from "../errors/configuration-error.js";

/**
 * What the infrastructure in front of the service may do to one request: a 503, a reset
 * connection, or a 429 as the service's limiter sends it (`Retry-After: 0`), whatever the load.
 */
export type FaultKind = "unavailable" | "reset" | "rate-limited";

export interface FaultOptions {
  /** Share of requests (0–1) answered 503 before they reach the service. */
  unavailableRate?: number;
  /** Share of requests (0–1) whose connection is reset without an answer. */
  resetRate?: number;
  /** Share of requests (0–1) answered 429, as when other clients use the token's limit. */
  rateLimitedRate?: number;
  /** Delay before every answer, in milliseconds. */
  delayMs?: number;
  /** Seed of the draws behind the rates, so a failing run can be replayed; default 1. */
  seed?: number;
}

export interface FaultDecision {
  delayMs: number;
  kind?: FaultKind;
}

/**
 * Fault injection for tests of retries: random shares (seeded, so reproducible) and an exact
 * queue of faults for the next requests, which tests that count attempts should prefer.
 */
export class Faults {
  private options: FaultOptions = {};
  private random = mulberry32(1);
  private queued: FaultKind[] = [];

  /** Replaces the fault settings and restarts the draws from the seed. */
  configure(options: FaultOptions): void {
    const rates = [options.unavailableRate, options.resetRate, options.rateLimitedRate];
    for (const rate of rates) {
      if (rate !== undefined && !(rate >= 0 && rate <= 1))
        throw new ConfigurationError("A fault rate is a share between 0 and 1");
    }
    if (rates.reduce((sum: number, rate) => sum + (rate ?? 0), 0) > 1)
      throw new ConfigurationError("The fault rates add up to more than 1");
    this.options = { ...options };
    this.random = mulberry32(options.seed ?? 1);
  }

  /** The next requests meet these faults, one each, before any random share applies. */
  queue(...kinds: FaultKind[]): void {
    this.queued.push(...kinds);
  }

  /** No faults: settings and queue cleared. */
  clear(): void {
    this.configure({});
    this.queued = [];
  }

  /** Draws the fate of the next request. */
  next(): FaultDecision {
    const delayMs = this.options.delayMs ?? 0;
    const queued = this.queued.shift();
    if (queued) return { delayMs, kind: queued };
    const draw = this.random();
    const unavailable = this.options.unavailableRate ?? 0;
    const reset = unavailable + (this.options.resetRate ?? 0);
    const rateLimited = reset + (this.options.rateLimitedRate ?? 0);
    if (draw < unavailable) return { delayMs, kind: "unavailable" };
    if (draw < reset) return { delayMs, kind: "reset" };
    if (draw < rateLimited) return { delayMs, kind: "rate-limited" };
    return { delayMs };
  }
}

/** A small seeded generator: uniform in [0, 1). */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
