import { ConfigurationError } from "../errors/configuration-error.js";

export interface EmulatorRateLimit {
  /** Calls per token in each refresh period (`refreshMs`); the service's default is 20. */
  perSecond: number;
  /** Calls per token in each hour; the service's default is 72,000. */
  perHour: number;
  /**
   * "cycles" (default), as the service's limiter works: `perSecond` permits per refresh
   * period, and a call over the limit waits up to `timeoutMs` for the next period before its
   * 429. "sliding": the strict worst case, the call after `perSecond` in any sliding second
   * is refused at once (`refreshMs` and `timeoutMs` do not apply).
   */
  mode: "cycles" | "sliding";
  /** The refresh period (Enterprise: TOWER_RATELIMIT_REFRESH); default 1,000 ms. */
  refreshMs: number;
  /** How long a call over the limit may wait (Enterprise: TOWER_RATELIMIT_TIMEOUT); default 500 ms. */
  timeoutMs: number;
}

export const SERVICE_RATE_LIMITS: EmulatorRateLimit = {
  perSecond: 20,
  perHour: 72_000,
  mode: "cycles",
  refreshMs: 1_000,
  timeoutMs: 500,
};

/** Admitted after `waitMs` (0: at once), or refused with the whole seconds to wait, rounded down. */
export type RateDecision =
  { allowed: true; waitMs: number } | { allowed: false; retryAfterSeconds: number };

interface Limit {
  /** Milliseconds until a permit is free for the call; 0 when one is free now. */
  waitMs(now: number): number;
  /** Takes the permit `waitMs(now)` promised. */
  take(now: number): void;
}

/**
 * `limit` permits per period of `periodMs`, periods counted from the token's first call; a
 * call may reserve a permit of a later period, which is how waiting calls use up the next
 * period's permits (as resilience4j, the service's limiter, does). Constant memory per token.
 */
class Cycles implements Limit {
  private cycle = 0;
  /** Permits left in the current cycle; negative when later cycles are reserved. */
  private permits: number;

  constructor(
    private readonly periodMs: number,
    private readonly limit: number,
    private readonly origin: number,
  ) {
    this.permits = limit;
  }

  private refresh(now: number): void {
    const cycle = Math.floor((now - this.origin) / this.periodMs);
    if (cycle > this.cycle) {
      this.permits = Math.min(this.limit, this.permits + (cycle - this.cycle) * this.limit);
      this.cycle = cycle;
    }
  }

  waitMs(now: number): number {
    this.refresh(now);
    if (this.permits > 0) return 0;
    const cyclesAhead = Math.floor(-this.permits / this.limit) + 1;
    return this.origin + (this.cycle + cyclesAhead) * this.periodMs - now;
  }

  take(now: number): void {
    this.refresh(now);
    this.permits--;
  }
}

/** Times of the calls admitted within the last `windowMs`, oldest first. */
class SlidingWindow implements Limit {
  private times: number[] = [];
  private head = 0;

  constructor(
    private readonly windowMs: number,
    private readonly limit: number,
  ) {}

  waitMs(now: number): number {
    while (this.head < this.times.length && this.times[this.head]! <= now - this.windowMs)
      this.head++;
    // Drop the consumed prefix now and then rather than shifting on every call.
    if (this.head > 1024) {
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
    if (this.times.length - this.head < this.limit) return 0;
    return this.times[this.head]! + this.windowMs - now;
  }

  take(now: number): void {
    this.times.push(now);
  }
}

/** Per-token limits, as the service applies them (or the strict sliding window). */
export class TokenRateLimiter {
  private readonly limits = new Map<string, Limit[]>();

  constructor(
    private readonly options: EmulatorRateLimit,
    private readonly now: () => number = Date.now,
  ) {
    for (const key of ["perSecond", "perHour", "refreshMs", "timeoutMs"] as const) {
      const value = options[key];
      if (!Number.isFinite(value) || value < (key === "timeoutMs" ? 0 : 1)) {
        throw new ConfigurationError(
          `rateLimit.${key} must be a finite number >= ${key === "timeoutMs" ? 0 : 1}`,
        );
      }
    }
  }

  /** Admits and counts the call, or says how long to wait; refused calls are not counted. */
  take(token: string): RateDecision {
    const now = this.now();
    let limits = this.limits.get(token);
    if (!limits) {
      const { mode, perSecond, perHour, refreshMs } = this.options;
      limits =
        mode === "sliding"
          ? [new SlidingWindow(1_000, perSecond), new SlidingWindow(3_600_000, perHour)]
          : [new Cycles(refreshMs, perSecond, now), new Cycles(3_600_000, perHour, now)];
      this.limits.set(token, limits);
    }
    const waitMs = Math.max(...limits.map((l) => l.waitMs(now)));
    const patience = this.options.mode === "sliding" ? 0 : this.options.timeoutMs;
    if (waitMs > patience) return { allowed: false, retryAfterSeconds: Math.floor(waitMs / 1000) };
    for (const l of limits) l.take(now);
    return { allowed: true, waitMs };
  }
}

export function rateLimitMessage(retryAfterSeconds: number): string {
  return `Maximum request rate exceeded. Wait ${retryAfterSeconds}secs before issuing a new request`;
}
