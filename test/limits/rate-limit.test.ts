import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";

import { RateLimiterUnavailableError } from "../../src/errors/index.js";
import { createSeqeraClient, type SeqeraClient } from "../../src/index.js";
import type { FetchFunction } from "../../src/config/config.js";
import { createRateLimiter, type Slot } from "../../src/limits/limiter.js";
import { GATEWAY_SCRIPT, startGatewayServer } from "../helpers/gateway-server.js";
import { startThreadedServer, THREADED_SCRIPT } from "../helpers/threaded-server.js";
import {
  maxInWindow,
  RATE_MESSAGE,
  startStrictServer,
  tokenKey,
  type Arrival,
  type StrictServer,
} from "../helpers/strict-server.js";
import { startLateReadingServer } from "./late-reading-server.js";
import { startCaller } from "./processes.js";
import {
  call,
  expectSlotsCountFromTheSend,
  expectSlowAnswersHoldNoSlot,
  expectUnansweredCallsHoldNoSlot,
  expectWaitBoundedByTimeout,
  limitedClient,
  recordSends,
  expect429sLearnt,
} from "./stack.js";

let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer();
});
afterAll(() => server.close());

/** A `fetch` over node:http, which publishes none of undici's events. GETs only. */
const httpFetch: FetchFunction = (request, init) =>
  new Promise((resolve, reject) => {
    const sent = httpRequest(
      request.url,
      {
        method: request.method,
        headers: Object.fromEntries(request.headers),
        signal: init?.signal ?? undefined,
      },
      (response) =>
        resolve(
          new Response(Readable.toWeb(response) as ReadableStream<Uint8Array>, {
            status: response.statusCode,
            headers: response.headers as Record<string, string>,
          }),
        ),
    );
    sent.on("error", reject).end();
  });

/** Each test uses its own token, hence its own budget (limiters live for the process). */
const token = (name: string) => `token-${name}-${Math.random()}`;
const arrivalsOf = (prefix: string) => server.count((a) => a.url.startsWith(prefix));

/**
 * `count` calls at once, call i through `clientOf(i)` to `${prefix}${i}`; expects every one to
 * be answered 200 (within 20 s, not hung on a stuck limiter), and returns this process's sends
 * of them, the limiter's own pacing: the server's clock sees them through the machine's load,
 * and a 429 it gives a late-counted send is retried (the service did nothing).
 */
async function sendAll(
  prefix: string,
  count: number,
  clientOf: (i: number) => SeqeraClient,
): Promise<Arrival[]> {
  const recording = recordSends();
  try {
    const statuses = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        call(clientOf(i), `${prefix}${i}`, { signal: AbortSignal.timeout(20_000) }).then(
          (r) => r.status,
        ),
      ),
    );
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  } finally {
    recording.stop();
  }
  const paths = new Set(server.arrivals.filter((x) => x.url.startsWith(prefix)).map((x) => x.url));
  expect(paths.size).toBe(count);
  return recording.sends.filter((x) => x.url.startsWith(prefix));
}

describe("rate limiter (in process)", () => {
  test("the strict server rejects a burst above 20 per second sent without a limiter", async () => {
    const t = token("raw");
    const transport = limitedClient(server.url, t, false);
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => call(transport, `/raw/${i}`)),
    );
    const statuses = responses.map((r) => r.status);
    // 10 when all 30 are stamped within a second; on two starved cores the last may come later.
    const rejected = statuses.filter((s) => s === 429).length;
    expect(rejected, String(statuses)).toBeGreaterThanOrEqual(5);
    expect(rejected, String(statuses)).toBeLessThanOrEqual(10);
  });

  // Pacing is asserted as the server counts the calls (its clock, through this machine's
  // scheduling).
  test("sends 60 concurrent calls at 20 per sliding second, a full burst first", async () => {
    const t = token("pace");
    const transport = limitedClient(server.url, t, {}, true);
    const sends = await sendAll("/pace/", 60, () => transport);
    expect(maxInWindow(sends, 1000)).toBe(20);
  });

  test("two layers on one token share one budget", async () => {
    const t = token("shared");
    const a = limitedClient(server.url, t, { perSecond: 5 }, true);
    const b = limitedClient(server.url, t, { perSecond: 5 }, true);
    const sends = await sendAll("/shared/", 12, (i) => (i % 2 ? a : b));
    expect(maxInWindow(sends, 1000)).toBe(5);
  });

  test("a client with a lower perSecond slows only its own calls on the token", async () => {
    const t = token("differ");
    const a = limitedClient(server.url, t, {}, true);
    const b = limitedClient(server.url, t, { perSecond: 5 }, true);
    // b's calls (every 4th) go only while the token has fewer than 5 in its last second; a's up
    // to 20.
    const sends = await sendAll("/differ/", 80, (i) => (i % 4 ? a : b));
    expect(maxInWindow(sends, 1000)).toBe(20);
    const bs = sends.filter((x) => Number(x.url.split("/").pop()) % 4 === 0);
    expect(maxInWindow(bs, 1000)).toBeLessThanOrEqual(5);
  });

  for (const [name, limits] of [
    ["perSecond: 2", { perSecond: 2 }],
    ["perHour: 30", { perHour: 30 }],
  ] as const) {
    test(`a closed client's limits (${name}) no longer bind the token's other clients`, async () => {
      const t = token(`closed-${name.replace(": ", "-")}`);
      const strict = limitedClient(server.url, t, limits);
      const prefix = `/closed-${name.replace(": ", "-")}/`;
      await call(strict, `${prefix}first`);
      await strict.close();
      const later = limitedClient(server.url, t, {}, true);
      const sends = await sendAll(`${prefix}later/`, 40, () => later);
      // Full bursts: 19 (with the first call in the window) or 20, not 2.
      expect(maxInWindow(sends, 1000)).toBeGreaterThanOrEqual(19);
    });
  }

  test("a client with an hourly budget joining later counts the token's slots of the last second", async () => {
    const t = token("hour-joins");
    const lax = createRateLimiter(t, { perHour: null });
    for (let i = 0; i < 3; i++) (await lax.acquire(info)).done();
    const strict = createRateLimiter(t, { perHour: 4 });
    (await strict.acquire(info)).done();
    // 4 of its hour's 4 are spent (3 by the other client, before it joined): it waits, typed
    // when its timeout runs out; the other client, without an hourly budget, goes on.
    await expect(strict.acquire(info, undefined, 1300)).rejects.toMatchObject({
      name: "TimeoutError",
    });
    (await lax.acquire(info)).done();
    await Promise.all([lax.close(), strict.close()]);
  });

  test("holds the call past the hourly budget in the queue until it is aborted", async () => {
    const t = token("hourly");
    const transport = limitedClient(server.url, t, { perSecond: 20, perHour: 25 });
    await Promise.all(Array.from({ length: 25 }, (_, i) => call(transport, `/hourly/${i}`)));
    expect(arrivalsOf("/hourly/")).toBe(25);

    const controller = new AbortController();
    const over = call(transport, `/hourly/over`, { signal: controller.signal });
    // Well past the 1-s window: only the hourly budget can still be holding it.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(arrivalsOf("/hourly/over")).toBe(0);
    controller.abort();
    await expect(over).rejects.toMatchObject({ name: "AbortError" });
    expect(arrivalsOf("/hourly/")).toBe(25);
  });

  test("an aborted queued call is never sent and gives its slot back at once", async () => {
    const t = token("abort");
    const transport = limitedClient(server.url, t, { perSecond: 2 });
    const send = (name: string, signal?: AbortSignal) =>
      call(transport, `/abort/${name}`, { signal });
    const held = [send("1"), send("2")];
    const controller = new AbortController();
    const aborted = send("3", controller.signal);
    const later = [send("4"), send("5")];
    let laterDone = false;
    void Promise.all(later).then(() => (laterDone = true));
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ name: "AbortError" });
    expect(laterDone).toBe(false); // rejected while still queued, not when its turn came
    await Promise.all([...held, ...later]);
    expect(arrivalsOf("/abort/3")).toBe(0);
    // Calls 4 and 5 took the slots freed by 1 and 2 together: the aborted call, queued before
    // them, held no slot for a window (it would have pushed call 5 a full window later).
    const at = (name: string) => server.arrivals.find((a) => a.url === `/abort/${name}`)!.at;
    expect(Math.abs(at("5") - at("4"))).toBeLessThan(1000);
  });

  test("a request whose SYN was dropped counts from when it left, a second after its slot was taken", async () => {
    await expectSlotsCountFromTheSend(token("late"), {});
  });

  test("unanswered calls hold no slot: another client on the token goes on", async () => {
    await expectUnansweredCallsHoldNoSlot(token("unanswered"), {});
  });

  test("answers of 2.5 s hold no slot: the next calls go a window and 35 ms after they left", async () => {
    await expectSlowAnswersHoldNoSlot(token("slow-answers"), {}, 2500);
  });

  test.each(["used", "new"] as const)(
    "answers of 500 ms on %s connections count from 35 ms after their requests left",
    async (connections) => {
      await expectSlowAnswersHoldNoSlot(token(`${connections}-connections`), {}, 500, connections);
    },
  );

  test("waiting for a slot is bounded by the call's timeoutMs, with a TimeoutError", async () => {
    await expectWaitBoundedByTimeout(token("wait-timeout"), {});
  });

  test("with a fetch that is not Node's (no send seen), unanswered calls still hold no slot", async () => {
    await expectUnansweredCallsHoldNoSlot(token("other-fetch"), {}, httpFetch);
  });

  test("an already aborted signal rejects without queueing", async () => {
    const t = token("pre-aborted");
    const transport = limitedClient(server.url, t);
    await expect(
      call(transport, `/pre-aborted`, { signal: AbortSignal.abort() }),
    ).rejects.toMatchObject({ name: "AbortError" });
    expect(arrivalsOf("/pre-aborted")).toBe(0);
  });

  test("close() settles the client's queued calls with a typed error, not another client's", async () => {
    const t = token("close");
    const mine = createRateLimiter(t, { perSecond: 1 });
    const theirs = createRateLimiter(t, { perSecond: 1 });
    (await mine.acquire(info)).done(); // the shared window is now full for a second
    const queued = Array.from({ length: 5 }, () => mine.acquire(info));
    const other = theirs.acquire(info);
    await mine.close();
    for (const call of queued) {
      await expect(call).rejects.toBeInstanceOf(RateLimiterUnavailableError);
      await expect(call).rejects.toMatchObject({ reason: "closed", path: "/x" });
    }
    await expect(mine.acquire(info)).rejects.toMatchObject({ reason: "closed" });
    (await other).done(); // the other client's call still gets its slot
  });
});

const info = { method: "GET", path: "/x", operationId: "x" };

describe("rate limiter, on a fake clock", () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  const fake = () =>
    vi.useFakeTimers({
      toFake: ["setTimeout", "clearTimeout", "setImmediate", "clearImmediate", "performance"],
    });

  /** Acquires and records, on the fake clock, when the slot came. */
  const timed = (limiter: ReturnType<typeof createRateLimiter>, signal?: AbortSignal) => {
    const at = { ms: NaN, slot: undefined as Slot | undefined };
    const promise = limiter.acquire(info, signal).then((slot) => {
      at.ms = performance.now();
      at.slot = slot;
      return slot;
    });
    return Object.assign(at, { promise });
  };

  test("keeps every sliding 60 minutes within perHour, and aborted calls spend none of it", async () => {
    fake();
    const limiter = createRateLimiter(token("sliding-hour"), { perSecond: 20, perHour: 50 });
    const start = performance.now();
    // 20 now, then one call aborted while queued, then 130 more over the next three hours.
    const first = Array.from({ length: 20 }, () => timed(limiter));
    const controller = new AbortController();
    const aborted = limiter.acquire(info, controller.signal);
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ name: "AbortError" });
    const rest = Array.from({ length: 130 }, () => timed(limiter));
    // Each answered at once (one unanswered and unseen leaving counts a window later: below).
    for (const call of [...first, ...rest]) void call.promise.then((slot) => slot.done());
    await vi.advanceTimersByTimeAsync(3 * 3_600_000);
    const times = [...first, ...rest].map((t) => t.ms - start);
    expect(times.filter(Number.isNaN)).toHaveLength(0);
    for (const t of times) {
      expect(times.filter((u) => u >= t && u < t + 3_600_000).length).toBeLessThanOrEqual(50);
    }
    // Sliding, not fixed: the 51st goes as soon as the 1st is an hour old, one second-window
    // of slots at a time, and the aborted call took no unit (50 went in the first hour).
    expect(times.filter((t) => t < 3_600_000)).toHaveLength(50);
    expect(times[50]).toBeGreaterThanOrEqual(3_600_000);
    expect(times[50]).toBeLessThan(3_600_000 + 50);
  });

  /** Tells a slot its request left now, as undici's event does for Node's fetch. */
  const send = (slot: Slot | undefined) =>
    (slot as unknown as { sent(at: number): void }).sent(performance.now());
  /** As timed(), and its request leaves `afterMs` after its slot comes (waiting for a connection). */
  const leaving = (limiter: ReturnType<typeof createRateLimiter>, afterMs = 0) => {
    const call = timed(limiter);
    void call.promise.then((slot) =>
      afterMs === 0 ? send(slot) : setTimeout(() => send(slot), afterMs),
    );
    return call;
  };

  /**
   * Two calls leaving as their slots come (perSecond 1), the first answered `afterMs` after it
   * left: how long after the first's slot the second's came.
   */
  const nextAfterAnswer = async (
    limiter: ReturnType<typeof createRateLimiter>,
    afterMs: number,
  ) => {
    const [first, next] = [leaving(limiter), leaving(limiter)];
    while (!first.slot) await vi.advanceTimersByTimeAsync(1);
    await vi.advanceTimersByTimeAsync(afterMs);
    first.slot.done();
    await vi.advanceTimersByTimeAsync(1100);
    next.slot!.done();
    return next.ms - first.ms;
  };

  test("a burst is taken 3 ms apart, and the spacing costs it nothing in the windows after", async () => {
    fake();
    const limiter = createRateLimiter(token("spacing"), { perSecond: 20, perHour: null });
    const start = performance.now();
    const calls = Array.from({ length: 60 }, () => leaving(limiter));
    for (const call of calls) void call.promise.then((slot) => slot.done());
    await vi.advanceTimersByTimeAsync(5000);
    const times = calls.map((call) => call.ms - start);
    // The first at once, then one every 3 ms (the first gap 2: a late timer is caught up).
    expect(times.slice(0, 4)).toEqual([0, 2, 5, 8]);
    expect(times[19]).toBe(56);
    // Each later slot frees a window after the one it follows was answered: still 3 ms apart.
    expect(times.slice(20, 23)).toEqual([1005, 1007, 1010]);
    expect(times[40]! - times[20]!).toBe(1005);
    for (const t of times) {
      expect(times.filter((u) => u >= t && u < t + 1005).length).toBeLessThanOrEqual(20);
    }
  });

  test("a request that left at once counts 35 ms after it left, however slow the answer or if none comes", async () => {
    fake();
    const limiter = createRateLimiter(token("slow"), { perSecond: 1, perHour: null });
    const [unanswered, slow, after] = Array.from({ length: 3 }, () => leaving(limiter));
    const when = (call: { ms: number }) => call.ms - unanswered!.ms;
    await vi.advanceTimersByTimeAsync(1100);
    // Never answered: it counts from 35 ms after it left.
    expect(when(slow!)).toBe(35 + 1005);
    await vi.advanceTimersByTimeAsync(700);
    // Answered 700 ms after it left: it still counts from 35 ms after it left.
    slow!.slot!.done();
    await vi.advanceTimersByTimeAsync(1100);
    expect(when(after!)).toBe(when(slow!) + 35 + 1005);
    for (const call of [unanswered, after]) call!.slot!.done();
    // Answered within the 35 ms: from its answer.
    expect(await nextAfterAnswer(limiter, 10)).toBe(10 + 1005);
  });

  test("a request that waited 500 ms for its connection counts from a late answer; with none by the window's end, from 35 ms after it left", async () => {
    fake();
    const limiter = createRateLimiter(token("slow-connect"), { perSecond: 2, perHour: null });
    const start = performance.now();
    const calls = Array.from({ length: 4 }, () => leaving(limiter, 500));
    await vi.advanceTimersByTimeAsync(700);
    // Read only when TCP sent it again, as a full accept queue makes it: answered 200 ms after.
    calls[0]!.slot!.done();
    await vi.advanceTimersByTimeAsync(2000);
    // The unanswered one (left at 502 ms, spaced) counts from 537 ms; the answered one from 700.
    expect(calls[2]!.ms - start).toBe(537 + 1005);
    expect(calls[3]!.ms - start).toBe(700 + 1005);
    for (const call of calls.slice(1)) call.slot!.done();
  });

  test("a request not yet left holds its slot a window at a time, and counts from when it left", async () => {
    fake();
    const limiter = createRateLimiter(token("opened"), { perSecond: 1, perHour: null });
    const start = performance.now();
    const calls = Array.from({ length: 3 }, () => timed(limiter));
    // Seen as a request of Node's fetch that has not left (its connect waits out dropped SYNs).
    void calls[1]!.promise.then(
      (slot) => ((slot as unknown as { tracked: boolean }).tracked = true),
    );
    await vi.advanceTimersByTimeAsync(5);
    send(calls[0]!.slot); // never answered
    await vi.advanceTimersByTimeAsync(3545);
    expect(calls[1]!.ms - start).toBe(5 + 35 + 1005);
    send(calls[1]!.slot); // left at last, 2.5 s after its slot was taken: its answer tells
    await vi.advanceTimersByTimeAsync(10);
    calls[1]!.slot!.done();
    await vi.advanceTimersByTimeAsync(3000);
    expect(calls[2]!.ms - start).toBe(3560 + 1005);
    for (const call of calls) call.slot!.done();
  });

  test("after a 429, the token's slots count from their answers, up to a window after they left, until 60 s pass without one", async () => {
    fake();
    const limiter = createRateLimiter(token("learns"), { perSecond: 1, perHour: null });
    const start = performance.now();
    const calls = Array.from({ length: 5 }, () => leaving(limiter));
    /** Answers call i `afterMs` after its slot came (it left then), with `status`. */
    const answer = async (i: number, afterMs: number, status = 200) => {
      while (!calls[i]!.slot) await vi.advanceTimersByTimeAsync(1);
      await vi.advanceTimersByTimeAsync(afterMs);
      calls[i]!.slot.done(status);
    };
    // Answered 400 ms after it left: before any 429, it counts from 35 ms after it left.
    await answer(0, 400);
    await answer(1, 10, 429);
    // Answered 400 ms after it left: it counts from its answer now; answered later than a
    // window after it left, from a window after it left.
    await answer(2, 400);
    await answer(3, 1500);
    await vi.advanceTimersByTimeAsync(1100);
    const at = calls.map((call) => call.ms - start);
    expect(at.slice(0, 4)).toEqual([0, 35 + 1005, at[1]! + 10 + 1005, at[2]! + 400 + 1005]);
    expect(at[4]).toBe(at[3]! + 1005 + 1005);
    calls[4]!.slot!.done();
    // 60 s after the 429, 35 ms again.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await nextAfterAnswer(limiter, 400)).toBe(35 + 1005);
  });

  test("a count made final before a 429 moves to its answer when it comes after the 429", async () => {
    fake();
    const t = token("learns-final");
    const [slow, other] = [{ perSecond: 1 }, { perSecond: 2 }].map((limits) =>
      createRateLimiter(t, { ...limits, perHour: null }),
    );
    const start = performance.now();
    const first = leaving(slow!);
    const refused = leaving(other!);
    const next = leaving(slow!);
    // At 35 ms after it left, the first's count is final; the other client's call is answered
    // 429 at 50 ms, and the first at 300 ms: read late, as the 429 says.
    await vi.advanceTimersByTimeAsync(50);
    refused.slot!.done(429);
    await vi.advanceTimersByTimeAsync(250);
    first.slot!.done();
    await vi.advanceTimersByTimeAsync(1500);
    expect(first.ms - start).toBe(0);
    expect(next.ms - start).toBe(300 + 1005);
    next.slot!.done();
  });

  test("a call unanswered and unseen leaving is counted from one window after its slot was taken", async () => {
    fake();
    const limiter = createRateLimiter(token("hold"), { perSecond: 1, perHour: null });
    const start = performance.now();
    // No fetch of Node's sends it, so the limiter cannot see it leave (as with another fetch).
    const unanswered = timed(limiter);
    const next = timed(limiter);
    await vi.advanceTimersByTimeAsync(5000);
    expect(unanswered.ms - start).toBe(0);
    expect(next.ms - start).toBe(2010); // one window later than an answered call's, no more
    unanswered.slot!.done();
    next.slot!.done();
  });

  test("slots taken before held ones' new times are counted in order with them", async () => {
    fake();
    const limiter = createRateLimiter(token("held-order"), { perSecond: 3, perHour: null });
    const start = performance.now();
    // 40 calls, one every 150 ms; every third is never answered (counted from a window after
    // its slot was taken, once 755 ms have passed), the others are answered at once.
    const calls: ReturnType<typeof timed>[] = [];
    for (let i = 0; i < 40; i++) {
      const call = timed(limiter);
      if (i % 3 !== 0) void call.promise.then((slot) => slot.done());
      calls.push(call);
      await vi.advanceTimersByTimeAsync(150);
    }
    await vi.advanceTimersByTimeAsync(30_000);
    const counted = calls
      .map((call, i) => call.ms - start + (i % 3 === 0 ? 1005 : 0))
      .sort((a, b) => a - b);
    expect(counted.filter(Number.isNaN)).toEqual([]);
    // No 4 within a window (1,005 ms): the 4th from any one comes a window or more later.
    const early = counted.filter((t, i) => i + 3 < counted.length && counted[i + 3]! - t < 1005);
    expect(early).toEqual([]);
    for (const [i, call] of calls.entries()) if (i % 3 === 0) call.slot!.done();
  });
});

describe("process lifetime", () => {
  test("a process whose calls are done exits by itself, queued calls all sent first", async () => {
    const caller = startCaller({ SERVER_URL: server.url, TOKEN: token("exit"), CALLS: "45" });
    const { code, result, stderr } = await caller.exited(20_000);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    // In process, the Redis client is never loaded.
    expect(result).toMatchObject({ ok: 45, statuses: ["200"], ioredisLoaded: false });
  });
});

// Servers we did not write (test/helpers/strict-server.ts, gateway-server.ts, threaded-server.py,
// late-reading-server.ts): every call answered once, through retries if need be. A server may
// read requests later than the limiter takes it to (late-reading always does, a busy machine
// makes the others do it) and answer 429: the limiter learns from the first 429, and no request
// that left a window after it draws another (a second more for this machine's scheduling).
// Without a limiter, 100 of the first 120 attempts get a 429. How fast is measured by `npm run
// bench`.
describe("rate limiter against other servers' limiters", () => {
  type Other = "late-stamping" | "gateway" | "threaded" | "documented" | "late-reading";
  const start = (limiter: Other) =>
    limiter === "gateway"
      ? startGatewayServer()
      : limiter === "threaded"
        ? startThreadedServer()
        : limiter === "late-reading"
          ? startLateReadingServer()
          : startStrictServer({ limiter });
  const others: Other[] = ["late-stamping", "gateway", "threaded", "documented", "late-reading"];
  for (const limiter of others) {
    test(`${limiter}: 120 concurrent calls each answered once, and a 429 learnt from`, async () => {
      const other: StrictServer & { flush?(): Promise<void> } = await start(limiter);
      const recording = recordSends();
      const client = createSeqeraClient({ baseUrl: other.url, token: token(limiter), env: {} });
      try {
        const statuses = await Promise.all(
          Array.from({ length: 120 }, (_, i) =>
            client.raw.request("GET", `/other/${i}`).then(({ response }) => response.status),
          ),
        );
        expect(statuses).toEqual(Array.from({ length: 120 }, () => 200));
        await other.flush?.();
        const answered = other.arrivals.filter((a) => a.status === 200).map((a) => a.url);
        expect(answered.sort()).toEqual(
          Array.from({ length: 120 }, (_, i) => `/other/${i}`).sort(),
        );
        expect429sLearnt(other.arrivals, recording.sends);
      } finally {
        recording.stop();
        await client.close();
        await other.close();
      }
    });
  }
});

/** Running: exists and is not a zombie (an orphan's exit waits for init to reap it). */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
};

/**
 * 8 POSTs at once to a fixture started with 5 per minute: 3 answered 429 as the service does,
 * the others echo their bodies, and the fixture recorded all 8 under the token's hash, never
 * the token.
 */
async function expectServiceLike429s(
  fixture: StrictServer & { flush(): Promise<void> },
  name: string,
): Promise<void> {
  const t = token(name);
  const responses = await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      fetch(`${fixture.url}/${name}/${i}`, {
        method: "POST",
        headers: { authorization: `Bearer ${t}` },
        body: `body ${i}`,
      }),
    ),
  );
  const rejected = responses.filter((r) => r.status === 429);
  expect(rejected).toHaveLength(3);
  const seconds = Number(rejected[0]!.headers.get("retry-after"));
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(60);
  expect(await rejected[0]!.json()).toEqual({ message: RATE_MESSAGE(seconds) });
  const passed = responses.filter((r) => r.status === 200);
  expect((await Promise.all(passed.map((r) => r.json()))).map((j) => j.body).sort()).toEqual(
    passed.map((r) => `body ${r.url.split("/").pop()}`).sort(),
  );
  await fixture.flush();
  expect(fixture.count(() => true)).toBe(8);
  expect(fixture.arrivals.every((a) => a.key === tokenKey(t))).toBe(true);
  expect(JSON.stringify(fixture.arrivals)).not.toContain(t);
  expect(fixture.maxInWindow()).toBe(8);
}

/**
 * Runs `script` (JavaScript) in a parent process that starts a fixture and prints its pids as
 * JSON, SIGKILLs that parent, and expects every pid gone within a generous 20 s.
 */
async function expectEndsWithParent(script: string): Promise<void> {
  const parent = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  const [line] = (await once(parent.stdout!.setEncoding("utf8"), "data")) as [string];
  const pids = [JSON.parse(line) as number[]].flat();
  expect(pids.every(alive)).toBe(true);
  parent.kill("SIGKILL");
  await once(parent, "exit");
  try {
    const deadline = performance.now() + 20_000;
    while (pids.some(alive) && performance.now() < deadline) await sleep(50);
    expect(pids.filter(alive)).toEqual([]);
  } finally {
    for (const pid of pids.filter(alive)) process.kill(pid, "SIGKILL");
  }
}

describe("the gateway fixture", () => {
  test("stamps in one process what its workers parsed, answers 429 as the service, and close() ends every process", async () => {
    // A window of a minute: the 8 calls fall in one however slowly this machine sends them.
    const gateway = await startGatewayServer({ perSecond: 5, windowMs: 60_000 });
    try {
      expect(gateway.pids).toHaveLength(5);
      expect(gateway.pids.every(alive)).toBe(true);
      await expectServiceLike429s(gateway, "gw");
    } finally {
      await gateway.close();
    }
    expect(gateway.pids.filter(alive)).toEqual([]);
    await expect(gateway.flush()).rejects.toThrow("not running");
  });

  test("ends with the process that started it, even one killed without a chance to close it", async () => {
    // The primary sees its channel close, ends its workers and exits.
    await expectEndsWithParent(
      `const child = require("node:child_process").spawn(process.execPath, [${JSON.stringify(GATEWAY_SCRIPT)}], { stdio: ["ignore", "inherit", "inherit", "ipc"], detached: true });
       child.on("message", (m) => m.type === "ready" && process.stdout.write(JSON.stringify(m.pids) + "\\n"));`,
    );
  });
});

describe("the threaded fixture", () => {
  test("without python3, fails saying what to install", async () => {
    const path = process.env.PATH;
    process.env.PATH = "/nonexistent";
    try {
      await expect(startThreadedServer()).rejects.toThrow(
        "python3 is not installed: the threaded-server fixture needs it (apt-get install python3)",
      );
    } finally {
      process.env.PATH = path;
    }
  });

  test("stamps under one lock, answers 429 as the service, and close() ends its process", async () => {
    const threaded = await startThreadedServer({ perSecond: 5, windowMs: 60_000 });
    try {
      await expectServiceLike429s(threaded, "th");
    } finally {
      await threaded.close();
    }
    expect(alive(threaded.pid)).toBe(false);
    await expect(threaded.flush()).rejects.toThrow("not running");
  });

  test("ends with the process that started it, even one killed without a chance to close it", async () => {
    // Its stdin closes with the parent: it exits.
    await expectEndsWithParent(
      `const child = require("node:child_process").spawn("python3", [${JSON.stringify(THREADED_SCRIPT)}], { stdio: ["pipe", "pipe", "inherit"] });
       child.stdout.once("data", () => process.stdout.write(child.pid + "\\n"));`,
    );
  });
});
