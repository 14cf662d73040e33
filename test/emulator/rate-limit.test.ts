import { describe, expect, test } from "vitest";
import { startEmulator } from "../../src/testing/index.js";
import { TokenRateLimiter } from "../../src/testing/rate-limit.js";
import { api } from "./http.js";

describe("per-token limiter (clock under the test's control)", () => {
  test("the 21st call within a second waits for the oldest to leave the window", () => {
    let now = 10_000;
    const limiter = new TokenRateLimiter({ perSecond: 20, perHour: 72_000 }, () => now);
    for (let i = 0; i < 20; i++) {
      expect(limiter.take("t")).toEqual({ allowed: true });
      now += 10;
    }
    expect(limiter.take("t")).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(limiter.take("other")).toEqual({ allowed: true });
    now = 11_000; // the first call leaves the window
    expect(limiter.take("t")).toEqual({ allowed: true });
    expect(limiter.take("t")).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  test("the hourly limit answers with the seconds until a slot frees", () => {
    let now = 0;
    const limiter = new TokenRateLimiter({ perSecond: 20, perHour: 3 }, () => now);
    for (let i = 0; i < 3; i++) expect(limiter.take("t").allowed).toBe(true);
    now = 1_500;
    expect(limiter.take("t")).toEqual({ allowed: false, retryAfterSeconds: 3599 });
    now = 3_600_000;
    expect(limiter.take("t").allowed).toBe(true);
  });
});

describe("rate limits over HTTP", () => {
  test("the 21st call in a second gets the service's 429", async () => {
    const emulator = await startEmulator();
    try {
      // Sent together, the 21 calls arrive well within one second.
      const responses = await Promise.all(
        Array.from({ length: 21 }, () => api(emulator, "/user-info")),
      );
      const limited = responses.filter((r) => r.status === 429);
      expect(responses.filter((r) => r.status === 200)).toHaveLength(20);
      expect(limited).toHaveLength(1);
      const seconds = limited[0]!.headers.get("retry-after");
      expect(seconds).toMatch(/^\d+$/);
      expect(await limited[0]!.json()).toEqual({
        message: `Maximum request rate exceeded. Wait ${seconds}secs before issuing a new request`,
      });
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
