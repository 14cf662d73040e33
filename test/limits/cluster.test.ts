/**
 * Cluster mode: several processes on one token share the budget through a real redis-server.
 * CI installs redis-server (.ci/run); without it this file fails in CI and skips elsewhere.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rateLimitLayer } from "../../src/rate-limit.js";
import { maxInWindow, startStrictServer, type StrictServer } from "../helpers/strict-server.js";
import { freePort, hasRedisServer, startCaller, startRedis } from "./processes.js";
import { call, stack } from "./stack.js";

const available = hasRedisServer();
if (!available && process.env.CI === "true") {
  throw new Error("redis-server is missing: the cluster-mode tests need it (see .ci/run)");
}

describe.skipIf(!available)("rate limiter in cluster mode (Redis)", () => {
  let server: StrictServer;
  let redis: Awaited<ReturnType<typeof startRedis>>;
  beforeAll(async () => {
    [server, redis] = await Promise.all([startStrictServer(), startRedis()]);
  });
  afterAll(async () => {
    await Promise.all([server?.close(), redis?.stop()]);
  });

  it("3 processes × 40 calls on one token: ≤ 20 per sliding second, no 429, all done, all exit", async () => {
    const token = `cluster-${Math.random()}`;
    // Four processes share two cores here while other test files run: a wider margin than the
    // default 5 ms absorbs their event-loop stalls (the benchmark measures the default).
    const callers = Array.from({ length: 3 }, () =>
      startCaller({
        SERVER_URL: server.url,
        TOKEN: token,
        CALLS: "40",
        REDIS_URL: redis.url,
        WINDOW_MARGIN_MS: "50",
      }),
    );
    const results = await Promise.all(callers.map((c) => c.exited(40_000)));
    for (const { code, result, stderr } of results) {
      expect(stderr, "child's stderr").toBe("");
      expect(code, stderr).toBe(0);
      expect(result, stderr).toMatchObject({ ok: 40, statuses: [200] });
    }
    const rejected = server.arrivals.filter((a) => a.status === 429).map((a) => a.url);
    expect(rejected, "calls the server rejected").toEqual([]);
    // Each call answered once (a GET may be resent after a keep-alive connection was reset).
    const answered = server.arrivals.filter((a) => a.url.startsWith("/call/") && a.status === 200);
    expect(new Set(answered.map((a) => a.url)).size).toBe(120);
    expect(answered).toHaveLength(120);
    // Warm-up calls included: every call of the token counts.
    expect(maxInWindow(server.arrivals, 1000)).toBeLessThanOrEqual(20);
  });

  it("the budget lives in Redis under a hash of the token, which never reaches Redis", async () => {
    const token = `secret-${Math.random()}`;
    const limiter = rateLimitLayer(token, { perSecond: 3, perHour: 5, redis: redis.url });
    const transport = stack([limiter]);
    await Promise.all(
      Array.from({ length: 5 }, (_, i) => call(transport, `${server.url}/budget/${i}`, { token })),
    );
    await limiter.close();

    // A new process-like limiter on the same token finds the hourly budget spent.
    const again = rateLimitLayer(token, { perSecond: 3, perHour: 5, redis: redis.url });
    const controller = new AbortController();
    const over = call(stack([again]), `${server.url}/budget/over`, {
      token,
      signal: controller.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    controller.abort();
    await expect(over).rejects.toMatchObject({ name: "AbortError" });
    await again.close();
    expect(server.count((a) => a.url.startsWith("/budget/"))).toBe(5);

    const { Redis } = await import("ioredis");
    const client = new Redis(redis.url);
    try {
      const keys = await client.keys("*");
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) expect(key).not.toContain(token);
      for (const key of keys.filter((k) => k.endsWith("_settings"))) {
        expect(JSON.stringify(await client.hgetall(key))).not.toContain(token);
      }
    } finally {
      client.disconnect();
    }
  });
});

it("with Redis unreachable, a queued call can still be aborted and close() returns", async () => {
  const url = `redis://127.0.0.1:${await freePort()}`;
  const limiter = rateLimitLayer(`unreachable-${Math.random()}`, { redis: url });
  await expect(
    call(stack([limiter]), "http://127.0.0.1:9/never", { signal: AbortSignal.timeout(500) }),
  ).rejects.toMatchObject({ name: "TimeoutError" });
  await limiter.close();
});
