/**
 * Cluster mode: several processes on one token share the budget through a real redis-server
 * started by the test. A missing redis-server fails these tests (.ci/run installs it).
 */
import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { RateLimiterUnavailableError } from "../../src/errors/index.js";
import { createRateLimiter } from "../../src/limits/limiter.js";
import { startStrictServer, tokenKey, type StrictServer } from "../helpers/strict-server.js";
import { expectEachCallSettledOnce } from "./outcomes.js";
import { freePort } from "../helpers/ports.js";
import { maxSentInWindow, startCaller, startRedis, type RedisServer } from "./processes.js";
import {
  call as send,
  expectSlotsCountFromTheSend,
  expectSlowAnswersHoldNoSlot,
  expectUnansweredCallsHoldNoSlot,
  expectWaitBoundedByTimeout,
  expect429sLearnt,
  limitedClient,
  recordSends,
} from "./stack.js";

const call = { method: "GET", path: "/x", operationId: "x" };
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("rate limiter in cluster mode (Redis)", () => {
  let server: StrictServer;
  let redis: RedisServer;
  beforeAll(async () => {
    // Each kept as it starts, so that afterAll stops a redis-server even when the other fails.
    await Promise.all([
      startStrictServer().then((started) => (server = started)),
      startRedis().then((started) => (redis = started)),
    ]);
  });
  afterAll(async () => {
    await Promise.all([server?.close(), redis?.stop()]);
  });

  // Seven Node processes and Redis on two cores (more with the other test files): each process
  // starts calling while others still compile. Each call answered once, never more than 20
  // written in a second; a starved CPU makes the server read some late, and its 429s (retried)
  // are learnt from (a limiter that does not share the budget draws hundreds).
  for (const round of [1, 2]) {
    test(`6 processes × 60 calls on one token (round ${round}): each call answered once, the pace kept`, async () => {
      const token = `cluster-${Math.random()}`;
      const callers = Array.from({ length: 6 }, () =>
        startCaller({ SERVER_URL: server.url, TOKEN: token, CALLS: "60", REDIS_URL: redis.url }),
      );
      const results = await expectEachCallSettledOnce(callers, server, 90_000);
      expect(results.map((r) => r.ok)).toEqual([60, 60, 60, 60, 60, 60]);
      expect(maxSentInWindow(results, 1000)).toBeLessThanOrEqual(20);
      const mine = server.arrivals.filter((a) => a.key === tokenKey(token));
      expect429sLearnt(
        mine,
        results.flatMap((r) => r.sends),
      );
    });
  }

  // The same checks as in process (rate-limit.test.ts).
  test("a request whose SYN was dropped counts from when it left, a second after its slot was taken", async () => {
    await expectSlotsCountFromTheSend(`late-${Math.random()}`, { redis: redis.url });
  });

  test("unanswered calls hold no slot: another client on the token goes on", async () => {
    await expectUnansweredCallsHoldNoSlot(`unanswered-${Math.random()}`, { redis: redis.url });
  });

  test("answers of 2.5 s hold no slot: the next calls go a window and 35 ms after they left", async () => {
    await expectSlowAnswersHoldNoSlot(`slow-answers-${Math.random()}`, { redis: redis.url }, 2500);
  });

  test.each(["used", "new"] as const)(
    "answers of 500 ms on %s connections count from 35 ms after their requests left",
    async (connections) => {
      await expectSlowAnswersHoldNoSlot(
        `${connections}-connections-${Math.random()}`,
        { redis: redis.url },
        500,
        connections,
      );
    },
  );

  test("waiting for a slot is bounded by the call's timeoutMs, with a TimeoutError", async () => {
    await expectWaitBoundedByTimeout(`wait-timeout-${Math.random()}`, { redis: redis.url });
  });

  test("a burst through Redis leaves 3 ms apart, as in process", async () => {
    const recording = recordSends();
    const client = limitedClient(server.url, `spacing-${Math.random()}`, { redis: redis.url });
    try {
      // Warm: a first request's own start-up (loading undici, connecting) would delay the
      // burst's first send past the next ones. Its slot then leaves the window.
      await send(client, "/warm");
      await sleep(1100);
      const statuses = await Promise.all(
        Array.from({ length: 20 }, (_, i) => send(client, `/spaced/${i}`).then((r) => r.status)),
      );
      expect(statuses).toEqual(Array.from({ length: 20 }, () => 200));
      const times = recording.sends
        .filter((s) => s.url.startsWith("/spaced/"))
        .map((s) => s.at)
        .sort((a, b) => a - b);
      expect(times).toHaveLength(20);
      // 19 gaps of 3 ms: a burst that left at once would take a few ms.
      expect(times[19]! - times[0]!).toBeGreaterThanOrEqual(50);
      expect(times[19]! - times[0]!).toBeLessThan(1000);
    } finally {
      recording.stop();
      await client.close();
    }
  });

  test("a slot moved to when its request was answered keeps its key alive that long", async () => {
    const token = `ttl-${Math.random()}`;
    const limiter = createRateLimiter(token, { redis: redis.url, perHour: null });
    const slot = await limiter.acquire(call);
    await sleep(2500); // the key was set to live 3,015 ms from the take
    await slot.sending(() => fetch(server.url).then((r) => r.text()));
    slot.done();
    await limiter.close(); // after the move it sent
    const { Redis } = await import("ioredis");
    const client = new Redis(redis.url);
    try {
      const key = `seqera-api:{${sha256(token).slice(0, 32)}:20:none}:stamps`;
      const [stamps, [seconds, micros], ttl] = await Promise.all([
        client.zrange(key, 0, -1, "WITHSCORES"),
        client.time(),
        client.pttl(key),
      ]);
      expect(stamps).toHaveLength(2); // one slot: its number and score
      const score = Number(stamps[1]);
      const now = Number(seconds) * 1000 + Number(micros) / 1000;
      // Counted from its answer, not from the take 2.5 s ago; and kept 3,015 ms from then.
      expect(now - score).toBeLessThan(1000);
      expect(ttl).toBeGreaterThan(2500);
    } finally {
      client.disconnect();
    }
  });

  test("a 429 one process saw makes another's slots on the token count from their answers", async () => {
    const token = `learns-${Math.random()}`;
    const limits = { redis: redis.url, perSecond: 1, perHour: null };
    const [one, two] = [createRateLimiter(token, limits), createRateLimiter(token, limits)];
    const slow = await startStrictServer({ fault: () => ({ delayMs: 400 }) });
    try {
      await fetch(slow.url).then((r) => r.text()); // undici loaded, before the clock matters
      (await one.acquire(call)).done(429);
      const slot = await two.acquire(call);
      const left = performance.now();
      await slot.sending(() => fetch(slow.url).then((r) => r.text()));
      slot.done(200);
      (await two.acquire(call)).done();
      // From its answer, 400 ms after it left, and a window; 1,040 ms had no 429 come.
      expect(performance.now() - left).toBeGreaterThanOrEqual(400 + 1005);
    } finally {
      await Promise.all([one.close(), two.close(), slow.close()]);
    }
  });

  test("closed mid-burst, a client gives back the slots it had not handed out yet", async () => {
    const token = `closed-burst-${Math.random()}`;
    const limiter = createRateLimiter(token, { redis: redis.url, perHour: null });
    // 20 slots are taken at once and handed out 3 ms apart: closed after the first.
    const calls = Array.from({ length: 20 }, () => limiter.acquire(call));
    const rest = Promise.allSettled(calls.slice(1));
    (await calls[0]!).done();
    await limiter.close();
    expect((await rest).map((r) => r.status)).toEqual(Array.from({ length: 19 }, () => "rejected"));
    const { Redis } = await import("ioredis");
    const client = new Redis(redis.url);
    try {
      const key = `seqera-api:{${sha256(token).slice(0, 32)}:20:none}:stamps`;
      // The first slot only: its number and score.
      expect(await client.zrange(key, 0, -1, "WITHSCORES")).toHaveLength(2);
    } finally {
      client.disconnect();
    }
  });

  test("the budget lives in Redis under a hash of the token, which never reaches Redis", async () => {
    const token = `secret-${Math.random()}`;
    const limits = { perSecond: 3, perHour: 5, redis: redis.url };
    const limiter = createRateLimiter(token, limits);
    for (let i = 0; i < 5; i++) (await limiter.acquire(call)).done();
    await limiter.close();

    // A new process-like limiter on the same token finds the hourly budget spent.
    const again = createRateLimiter(token, limits);
    const over = again.acquire(call, AbortSignal.timeout(1500));
    await expect(over).rejects.toMatchObject({ name: "TimeoutError" });
    await again.close();

    const { Redis } = await import("ioredis");
    const client = new Redis(redis.url);
    try {
      const keys = await client.keys("*");
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) {
        expect(key).not.toContain(token);
        const value = (await client.type(key)) === "hash" ? await client.hgetall(key) : {};
        expect(JSON.stringify(value)).not.toContain(token);
      }
    } finally {
      client.disconnect();
    }
  });
});

test("with Redis unreachable, a queued call can still be aborted, and close() fails the rest typed", async () => {
  const limiter = createRateLimiter(`unreachable-${Math.random()}`, {
    redis: `redis://127.0.0.1:${await freePort()}`,
  });
  await expect(limiter.acquire(call, AbortSignal.timeout(500))).rejects.toMatchObject({
    name: "TimeoutError",
  });
  const queued = limiter.acquire(call);
  await limiter.close();
  await expect(queued).rejects.toBeInstanceOf(RateLimiterUnavailableError);
});
