/**
 * Cluster mode when Redis fails: a real redis-server, started by the test, is killed and
 * restarted empty, stopped and resumed, absent, or drops its clients, while a caller process
 * waits on it. Every call must settle (a 200 or RateLimiterUnavailableError) within a bound,
 * none may be sent twice, and the caller must exit by itself. A missing redis-server fails
 * these tests (.ci/run installs it).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startStrictServer, tokenKey, type StrictServer } from "../helpers/strict-server.js";
import { expectEachCallSettledOnce } from "./outcomes.js";
import { freePort } from "../helpers/ports.js";
import { maxSentInWindow, startCaller, startRedis } from "./processes.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("rate limiter when Redis fails", () => {
  let server: StrictServer;
  beforeAll(async () => {
    server = await startStrictServer();
  });
  afterAll(() => server.close());

  /** A caller of `calls` GETs through Redis at `url`, each with a token (budget) of its own. */
  const caller = (url: string, calls: number, env: Record<string, string> = {}) => {
    const token = `faults-${Math.random()}`;
    const started = startCaller({
      SERVER_URL: server.url,
      TOKEN: token,
      CALLS: String(calls),
      REDIS_URL: url,
      ...env,
    });
    const sent = () => server.count((a) => a.key === tokenKey(token));
    return Object.assign(started, { sent });
  };
  /**
   * Waits for the caller's first burst: its start-up takes seconds on a loaded machine, so a
   * fixed sleep let the fault come before any call (this file failed so at a load of 50).
   */
  const untilStarted = async (c: { sent(): number }) => {
    for (const deadline = Date.now() + 60_000; c.sent() < 20; await sleep(20)) {
      if (Date.now() > deadline) throw new Error(`the caller sent ${c.sent()} calls in 60 s`);
    }
  };
  /** The fault came mid-run: some of the caller's calls were sent, not all. */
  const expectMidRun = (sent: number, calls: number) => {
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThan(calls);
  };
  test("killed and restarted empty mid-run: queued calls go on, never 21 in a second", async () => {
    const redis = await startRedis();
    try {
      // 100 calls at 20/s take about 5 s; Redis dies after the first burst.
      const c = caller(redis.url, 100);
      await untilStarted(c);
      expectMidRun(c.sent(), 100);
      redis.signal("SIGKILL");
      await redis.restart();
      const [result] = await expectEachCallSettledOnce([c], server, 30_000);
      expect(result!.ok).toBe(100);
      // The restarted Redis knows nothing of the slots taken just before: it waits one window.
      // The caller's own sends: a loaded server reads requests late, bunched into one second.
      expect(maxSentInWindow([result!], 1000)).toBeLessThanOrEqual(20);
    } finally {
      await redis.stop();
    }
  });

  test("stopped for 5 s then resumed: calls wait and go on", async () => {
    const redis = await startRedis();
    try {
      const c = caller(redis.url, 100);
      await untilStarted(c);
      expectMidRun(c.sent(), 100);
      redis.signal("SIGSTOP");
      await sleep(5000);
      redis.signal("SIGCONT");
      const [result] = await expectEachCallSettledOnce([c], server, 30_000);
      // Within the default redisTimeoutMs (10 s), so none failed.
      expect(result!.ok).toBe(100);
      // The caller's own sends: a loaded server reads requests late, bunched into one second.
      expect(maxSentInWindow([result!], 1000)).toBeLessThanOrEqual(20);
    } finally {
      await redis.stop();
    }
  });

  test("down from the start: every call fails typed after redisTimeoutMs, none sent", async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const c = caller(url, 100, { REDIS_TIMEOUT_MS: "1500" });
    const [result] = await expectEachCallSettledOnce([c], server, 20_000);
    expect(result!.statuses).toEqual(["RateLimiterUnavailableError"]);
    // Bounded: 1.5 s, plus the time to notice (connection refused is immediate here).
    expect(result!.settledMs).toBeLessThan(10_000);
    expect(server.arrivals.filter((a) => a.url.startsWith(`/call/${result!.pid}/`))).toEqual([]);
    expect(result!.sends).toEqual([]);
  });

  test("CLIENT KILL mid-run: the connection comes back and calls go on", async () => {
    const redis = await startRedis();
    const { Redis } = await import("ioredis");
    const admin = new Redis(redis.url);
    try {
      const c = caller(redis.url, 100);
      await untilStarted(c);
      expectMidRun(c.sent(), 100);
      const killed = await admin.client("KILL", "TYPE", "normal", "SKIPME", "yes");
      expect(killed).toBeGreaterThan(0);
      const [result] = await expectEachCallSettledOnce([c], server, 30_000);
      expect(result!.ok).toBe(100);
      // The caller's own sends: a loaded server reads requests late, bunched into one second.
      expect(maxSentInWindow([result!], 1000)).toBeLessThanOrEqual(20);
    } finally {
      admin.disconnect();
      await redis.stop();
    }
  });

  test("close() with 100 queued: each fails typed at once, none sent, the process exits", async () => {
    const redis = await startRedis();
    try {
      // Twenty go out at once; the other 80 are still queued when the client closes.
      const c = caller(redis.url, 100, { CLOSE_AFTER_MS: "1500" });
      const [result] = await expectEachCallSettledOnce([c], server, 20_000);
      const unavailable = result!.outcomes.filter((o) => o === "RateLimiterUnavailableError");
      expect(unavailable.length).toBeGreaterThanOrEqual(60);
      expect(result!.ok + unavailable.length).toBe(100);
    } finally {
      await redis.stop();
    }
  });
});
