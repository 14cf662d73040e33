export interface RateLimitOptions {
  /** Calls per token in any one-second window; the service's default is 20. */
  perSecond: number;
  /** Calls per token in any one-hour window; the service's default is 72,000. */
  perHour: number;
}

export const SERVICE_RATE_LIMITS: RateLimitOptions = { perSecond: 20, perHour: 72_000 };

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Times of the calls admitted within the last `windowMs`, oldest first. */
class SlidingWindow {
  private times: number[] = [];
  private head = 0;

  constructor(
    private readonly windowMs: number,
    private readonly limit: number,
  ) {}

  /** Milliseconds until a call would fit; 0 when it fits now. */
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

  record(now: number): void {
    this.times.push(now);
  }
}

/** Per-token limits over sliding windows, as the service applies them. */
export class TokenRateLimiter {
  private readonly windows = new Map<string, SlidingWindow[]>();

  constructor(
    private readonly options: RateLimitOptions,
    private readonly now: () => number = Date.now,
  ) {}

  /** Admits and counts the call, or says how long to wait; refused calls are not counted. */
  take(token: string): RateDecision {
    let windows = this.windows.get(token);
    if (!windows) {
      windows = [
        new SlidingWindow(1_000, this.options.perSecond),
        new SlidingWindow(3_600_000, this.options.perHour),
      ];
      this.windows.set(token, windows);
    }
    const now = this.now();
    const waitMs = Math.max(...windows.map((w) => w.waitMs(now)));
    if (waitMs > 0) return { allowed: false, retryAfterSeconds: Math.ceil(waitMs / 1000) };
    for (const w of windows) w.record(now);
    return { allowed: true };
  }
}

export function rateLimitMessage(retryAfterSeconds: number): string {
  return `Maximum request rate exceeded. Wait ${retryAfterSeconds}secs before issuing a new request`;
}
