import { afterEach, describe, expect, test, vi } from "vitest";
import { startEmulator } from "../../src/testing/index.js";
import { SERVICE_RATE_LIMITS, TokenRateLimiter } from "../../src/testing/rate-limit.js";
import { api } from "./http.js";

describe("per-token limiter, the service's refresh cycles (clock under the test's control)", () => {
  test("20 permits per second; the 21st waits for the next cycle when it starts within 500 ms", () => {
    let now = 10_000;
    const limiter = new TokenRateLimiter(SERVICE_RATE_LIMITS, () => now);
    for (let i = 0; i < 20; i++) expect(limiter.take("t")).toEqual({ allowed: true, waitMs: 0 });
    now = 10_400; // the next cycle starts at 11,000: 600 ms away, more than the 500 ms timeout
    expect(limiter.take("t")).toEqual({ allowed: false, retryAfterSeconds: 0 });
    expect(limiter.take("other")).toEqual({ allowed: true, waitMs: 0 });
    now = 10_700; // 300 ms away: the call waits and takes a permit of the next cycle
    expect(limiter.take("t")).toEqual({ allowed: true, waitMs: 300 });
    // The waiting calls use up the next cycle: after 19 more, the 21st waits 1,300 ms: refused.
    for (let i = 0; i < 19; i++) expect(limiter.take("t")).toEqual({ allowed: true, waitMs: 300 });
    expect(limiter.take("t")).toEqual({ allowed: false, retryAfterSeconds: 1 });
    now = 11_000; // the reserved cycle has begun; the next free permit is at 12,000
    expect(limiter.take("t")).toEqual({ allowed: false, retryAfterSeconds: 1 });
    now = 11_600;
    expect(limiter.take("t")).toEqual({ allowed: true, waitMs: 400 });
    now = 12_999;
    expect(limiter.take("t")).toEqual({ allowed: true, waitMs: 0 });
  });

  test("refresh period, permits and timeout are configurable, as TOWER_RATELIMIT_* are", () => {
    let now = 0;
    const limiter = new TokenRateLimiter(
      { ...SERVICE_RATE_LIMITS, perSecond: 2, refreshMs: 5_000, timeoutMs: 0 },
      () => now,
    );
    expect([limiter.take("t").allowed, limiter.take("t").allowed]).toEqual([true, true]);
    now = 2_500;
    expect(limiter.take("t")).toEqual({ allowed: false, retryAfterSeconds: 2 });
    now = 5_000;
    expect(limiter.take("t")).toEqual({ allowed: true, waitMs: 0 });
  });

  test("the hourly limit answers with the whole seconds to the next hour, rounded down", () => {
    let now = 0;
    const limiter = new TokenRateLimiter({ ...SERVICE_RATE_LIMITS, perHour: 3 }, () => now);
    for (let i = 0; i < 3; i++) expect(limiter.take("t").allowed).toBe(true);
    now = 1_500;
    expect(limiter.take("t")).toEqual({ allowed: false, retryAfterSeconds: 3598 });
    now = 3_600_000;
    expect(limiter.take("t").allowed).toBe(true);
  });

  test("nonsense settings are refused when the emulator starts", async () => {
    await expect(startEmulator({ rateLimit: { refreshMs: 0 } })).rejects.toThrow(
      "rateLimit.refreshMs must be a finite number >= 1",
    );
  });
});

describe("per-token limiter, the strict sliding window", () => {
  test("the 21st call within any second is refused at once until the oldest leaves", () => {
    let now = 10_000;
    const limiter = new TokenRateLimiter({ ...SERVICE_RATE_LIMITS, mode: "sliding" }, () => now);
    for (let i = 0; i < 20; i++) {
      expect(limiter.take("t")).toEqual({ allowed: true, waitMs: 0 });
      now += 10;
    }
    expect(limiter.take("t")).toEqual({ allowed: false, retryAfterSeconds: 0 });
    now = 11_000; // the first call leaves the window
    expect(limiter.take("t")).toEqual({ allowed: true, waitMs: 0 });
    expect(limiter.take("t")).toEqual({ allowed: false, retryAfterSeconds: 0 });
  });
});

describe("rate limits over HTTP", () => {
  afterEach(() => vi.useRealTimers());

  test("the 21st call in a cycle gets the 429 users see: Retry-After 0 and 'Wait 0secs'", async () => {
    // The emulator's clock stands still (timers run): the 21 calls fall in one cycle however
    // late a loaded machine reads them.
    vi.useFakeTimers({ toFake: ["Date"], now: 1_000_000 });
    const emulator = await startEmulator();
    try {
      const first = await Promise.all(
        Array.from({ length: 20 }, () => api(emulator, "/user-info")),
      );
      vi.setSystemTime(1_000_010);
      const responses = [...first, await api(emulator, "/user-info")];
      const limited = responses.filter((r) => r.status === 429);
      expect(responses.filter((r) => r.status === 200)).toHaveLength(20);
      expect(limited).toHaveLength(1);
      expect(limited[0]!.headers.get("retry-after")).toBe("0");
      expect(await limited[0]!.json()).toEqual({
        message: "Maximum request rate exceeded. Wait 0secs before issuing a new request",
      });
      expect(emulator.requests.map((r) => r.status).sort()).toEqual([
        ...Array<number>(20).fill(200),
        429,
      ]);
    } finally {
      await emulator.close();
    }
  });

  test("with a longer timeout the call over the limit waits for the next cycle and succeeds", async () => {
    const emulator = await startEmulator({
      rateLimit: { perSecond: 2, refreshMs: 300, timeoutMs: 1_000 },
    });
    try {
      const started = Date.now();
      const statuses = await Promise.all(
        Array.from({ length: 3 }, () => api(emulator, "/user-info").then((r) => r.status)),
      );
      expect(statuses).toEqual([200, 200, 200]);
      // The third waited for the second cycle (a lower bound, never an upper one).
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    } finally {
      await emulator.close();
    }
  });

  test("the strict sliding window is an option", async () => {
    const emulator = await startEmulator({ rateLimit: { mode: "sliding", perSecond: 3 } });
    try {
      const statuses = await Promise.all(
        Array.from({ length: 5 }, () => api(emulator, "/user-info").then((r) => r.status)),
      );
      expect(statuses.sort()).toEqual([200, 200, 200, 429, 429]);
    } finally {
      await emulator.close();
    }
  });

  test("limits are per token and configurable", async () => {
    const emulator = await startEmulator({ tokens: ["a", "b"], rateLimit: { perHour: 2 } });
    try {
      const call = (token: string) =>
        api(emulator, "/user-info", { headers: { authorization: `Bearer ${token}` } });
      expect([
        (await call("a")).status,
        (await call("a")).status,
        (await call("a")).status,
      ]).toEqual([200, 200, 429]);
      expect((await call("b")).status).toBe(200);
    } finally {
      await emulator.close();
    }
  });

  test("limits can be turned off, as an Enterprise install may", async () => {
    const emulator = await startEmulator({ rateLimit: false });
    try {
      const statuses = await Promise.all(
        Array.from({ length: 30 }, () => api(emulator, "/user-info").then((r) => r.status)),
      );
      expect(new Set(statuses)).toEqual(new Set([200]));
    } finally {
      await emulator.close();
    }
  });
});
