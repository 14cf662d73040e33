import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import os from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";

// The allowance scales with the machine's load (margin.ts): these tests set the load. margin.ts
// loads node:os with require at first use, which vi.mock does not reach: the one module object
// is changed instead.
const machine = { load: 0 };
vi.spyOn(os, "loadavg").mockImplementation(() => [machine.load, machine.load, machine.load]);
vi.spyOn(os, "availableParallelism").mockImplementation(() => 2);
import { RateLimiterUnavailableError } from "../../src/errors/index.js";
import { createSeqeraClient } from "../../src/index.js";
import { createRateLimiter, type Permit } from "../../src/limits/limiter.js";
import { GATEWAY_SCRIPT, startGatewayServer } from "../helpers/gateway-server.js";
import { startThreadedServer, THREADED_SCRIPT } from "../helpers/threaded-server.js";
import {
  maxInWindow,
  RATE_MESSAGE,
  startStrictServer,
  tokenKey,
  type StrictServer,
} from "../helpers/strict-server.js";
import { startCaller } from "./processes.js";
import { call, expectLateRequestsKeepTheirSlots, limitedClient } from "./stack.js";

let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer();
});
afterAll(() => server.close());

/** Each test uses its own token, hence its own budget (limiters live for the process). */
const token = (name: string) => `token-${name}-${Math.random()}`;
const arrivalsOf = (prefix: string) => server.count((a) => a.url.startsWith(prefix));

describe("rate limiter (in process)", () => {
  test("the strict server rejects a burst above 20 per second sent without a limiter", async () => {
    const t = token("raw");
    const transport = limitedClient(server.url, t, false);
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => call(transport, `/raw/${i}`)),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 429).length, String(statuses)).toBe(10);
  });

  test("sends 60 concurrent calls at 20 per sliding second, a full burst first", async () => {
    const t = token("pace");
    const transport = limitedClient(server.url, t);
    const statuses = await Promise.all(
      Array.from({ length: 60 }, (_, i) => call(transport, `/pace/${i}`).then((r) => r.status)),
    );
    const mine = server.arrivals.filter((a) => a.url.startsWith("/pace/"));
    expect(mine).toHaveLength(60);
    // A full burst of 20 went out (no pacing below the limit) and no more: the grants are exact;
    // a send made late by a starved machine may add one (0 × 429 is measured in the bench).
    expect(statuses.filter((s) => s === 429).length).toBeLessThanOrEqual(1);
    expect(maxInWindow(mine, 1000)).toBeGreaterThanOrEqual(20);
    expect(maxInWindow(mine, 1000)).toBeLessThanOrEqual(21);
  });

  test("two layers on one token share one budget", async () => {
    const t = token("shared");
    const a = limitedClient(server.url, t, { perSecond: 5 });
    const b = limitedClient(server.url, t, { perSecond: 5 });
    const before = server.arrivals.length;
    await Promise.all(Array.from({ length: 12 }, (_, i) => call(i % 2 ? a : b, `/shared/${i}`)));
    const mine = server.arrivals.slice(before).filter((x) => x.url.startsWith("/shared/"));
    expect(mine).toHaveLength(12);
    expect(maxInWindow(mine, 1000)).toBe(5);
  });

  // Limiters keyed by the options gave each of these pairs two budgets of 20/s
  // and the strict server answered 40 of 80 calls 429.
  for (const [name, other, max] of [
    ["perHour: null", { perHour: null }, 20],
    ["perSecond: 10", { perSecond: 10 }, 10],
  ] as const) {
    test(`two clients on one token with different options (${name}) share one budget, the strictest`, async () => {
      const t = token(`differ-${max}`);
      const a = limitedClient(server.url, t, {});
      const b = limitedClient(server.url, t, other);
      const prefix = `/differ-${max}/`;
      const statuses = await Promise.all(
        Array.from({ length: 80 }, (_, i) =>
          call(i % 2 ? a : b, `${prefix}${i}`).then((r) => r.status),
        ),
      );
      const mine = server.arrivals.filter((x) => x.url.startsWith(prefix));
      expect(mine).toHaveLength(80);
      // Pacing is exact on grants; the server's clock sees them through this machine's
      // scheduling, so a starved run may let one or two arrive late (the bench measures that).
      expect(statuses.filter((s) => s === 429).length).toBeLessThanOrEqual(2);
      expect(maxInWindow(mine, 1000)).toBeLessThanOrEqual(max + 2);
    });
  }

  test("a stricter hourly budget joining later counts the grants of the last second", async () => {
    const t = token("hour-joins");
    const lax = createRateLimiter(t, { perHour: null });
    for (let i = 0; i < 3; i++) (await lax.acquire(info)).done(200);
    const strict = createRateLimiter(t, { perHour: 4 });
    (await strict.acquire(info)).done(200);
    // 4 of the hour's 4 are spent (3 before the strict client joined): both now wait.
    await expect(lax.acquire(info, AbortSignal.timeout(1300))).rejects.toMatchObject({
      name: "TimeoutError",
    });
    await Promise.all([lax.close(), strict.close()]);
  });

  test("holds the call past the hourly budget in the queue until it is aborted", async () => {
    const t = token("hourly");
    const transport = limitedClient(server.url, t, { perSecond: 20, perHour: 25 });
    const first = await Promise.all(
      Array.from({ length: 25 }, (_, i) => call(transport, `/hourly/${i}`).then((r) => r.status)),
    );
    expect(first.filter((s) => s === 200)).toHaveLength(25);

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

  test("a request that reaches the server late keeps its slot until it is answered", async () => {
    await expectLateRequestsKeepTheirSlots(token("late"), {});
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
    (await mine.acquire(info)).done(200); // the shared window is now full for a second
    const queued = Array.from({ length: 5 }, () => mine.acquire(info));
    const other = theirs.acquire(info);
    await mine.close();
    for (const call of queued) {
      await expect(call).rejects.toBeInstanceOf(RateLimiterUnavailableError);
      await expect(call).rejects.toMatchObject({ reason: "closed", path: "/x" });
    }
    await expect(mine.acquire(info)).rejects.toMatchObject({ reason: "closed" });
    (await other).done(200); // the other client's call still gets its slot
  });
});

const info = { method: "GET", path: "/x", operationId: "x" };

describe("rate limiter, on a fake clock", () => {
  afterEach(() => {
    vi.useRealTimers();
    machine.load = 0;
  });
  const fake = () =>
    vi.useFakeTimers({
      toFake: ["setTimeout", "clearTimeout", "setImmediate", "clearImmediate", "performance"],
    });

  /** Acquires and records, on the fake clock, when the permit came. */
  const timed = (limiter: ReturnType<typeof createRateLimiter>, signal?: AbortSignal) => {
    const at = { ms: NaN, permit: undefined as Permit | undefined };
    const promise = limiter.acquire(info, signal).then((permit) => {
      at.ms = performance.now();
      at.permit = permit;
      return permit;
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
    // Each answered at once: an unanswered call holds its slot (tested below).
    for (const call of [...first, ...rest]) void call.promise.then((permit) => permit.done(200));
    await vi.advanceTimersByTimeAsync(3 * 3_600_000);
    const times = [...first, ...rest].map((t) => t.ms - start);
    expect(times.filter(Number.isNaN)).toHaveLength(0);
    for (const t of times) {
      expect(times.filter((u) => u >= t && u < t + 3_600_000).length).toBeLessThanOrEqual(50);
    }
    // Sliding, not fixed: the 51st goes as soon as the 1st is an hour old, one second-window
    // of grants at a time, and the aborted call took no unit (50 went in the first hour).
    expect(times.filter((t) => t < 3_600_000)).toHaveLength(50);
    expect(times[50]).toBeGreaterThanOrEqual(3_600_000);
    expect(times[50]).toBeLessThan(3_600_000 + 50);
  });

  test("holds a slot longer by a slow answer, up to an allowance that a 429 widens", async () => {
    fake();
    const limiter = createRateLimiter(token("allowance"), { perSecond: 1, perHour: null });
    const start = performance.now();
    const when = (call: { ms: number }) => call.ms - start;
    // The first call opens the connection; the second reuses it and answers at once.
    (await limiter.acquire(info)).done(200);
    const prompt = timed(limiter);
    await vi.advanceTimersByTimeAsync(1005);
    prompt.permit!.done(200);
    const slow = timed(limiter);
    const next = timed(limiter);
    await vi.advanceTimersByTimeAsync(1005 + 300);
    expect(when(slow)).toBe(2010);
    slow.permit!.done(200); // 300 ms: its slot counts the allowance, 15 ms, later
    await vi.advanceTimersByTimeAsync(1000);
    expect(when(next)).toBe(2010 + 1005 + 15);

    next.permit!.done(429); // the service saw too many: the allowance widens by 50 ms
    const slowAgain = timed(limiter);
    const last = timed(limiter);
    await vi.advanceTimersByTimeAsync(1005 + 300);
    slowAgain.permit!.done(200);
    await vi.advanceTimersByTimeAsync(1100);
    // 15 + 50 ms, less the little the learned part decayed since (it halves every 10 minutes)
    expect(when(last) - when(slowAgain)).toBe(1005 + 65);
  });

  test("an unanswered call holds its slot until its answer comes, then counts from it", async () => {
    fake();
    const limiter = createRateLimiter(token("hold"), { perSecond: 1, perHour: null });
    const start = performance.now();
    // The first call opens the connection; the second reuses it, and is not answered for 2.5 s.
    (await limiter.acquire(info)).done(200);
    const unanswered = timed(limiter);
    const next = timed(limiter);
    await vi.advanceTimersByTimeAsync(1005 + 2500);
    expect(unanswered.ms - start).toBe(1005);
    expect(next.permit).toBeUndefined(); // its request may still be on its way
    unanswered.permit!.done(200);
    await vi.advanceTimersByTimeAsync(1100);
    expect(next.ms - start).toBe(1005 + 2500 + 1005);
  });

  test("on a machine with more runnable processes than CPUs, the allowance grows with the load", async () => {
    machine.load = 12; // 6 per CPU: the allowance is 15 ms + 5 × 25 ms
    fake();
    const limiter = createRateLimiter(token("load"), { perSecond: 1, perHour: null });
    (await limiter.acquire(info)).done(200);
    const slow = timed(limiter);
    const next = timed(limiter);
    await vi.advanceTimersByTimeAsync(1005 + 400);
    slow.permit!.done(200); // answered in 400 ms: 140 of them count
    await vi.advanceTimersByTimeAsync(1000);
    expect(next.ms - slow.ms).toBe(1005 + 140);
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

// Servers we did not write (test/helpers/strict-server.ts, gateway-server.ts, threaded-server.py), on a quiet
// machine's allowance (the load is mocked to 0). What holds on any machine is asserted: every
// call answered once, every 429 retried. How few 429s and how fast is measured by `npm run
// bench` (targets: ≤ 2 × 429, all in the first second, against the late-stamping and gateway
// servers; none against the documented one); here only a generous bound (without a limiter,
// 100 of the first 120 attempts get one).
describe("rate limiter against other servers' limiters", () => {
  const start = (limiter: "late-stamping" | "gateway" | "threaded" | "documented") =>
    limiter === "gateway"
      ? startGatewayServer()
      : limiter === "threaded"
        ? startThreadedServer()
        : startStrictServer({ limiter });
  for (const limiter of ["late-stamping", "gateway", "threaded", "documented"] as const) {
    test(`${limiter}: 120 concurrent calls each answered once, 429s few and retried`, async () => {
      const other: StrictServer & { flush?(): Promise<void> } = await start(limiter);
      try {
        const client = createSeqeraClient({
          baseUrl: other.url,
          token: token(limiter),
          env: {},
        });
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
        // Failed once at ≤ 6 with every limits file running at a load of 50 on 2 cores.
        expect(other.count((a) => a.status === 429)).toBeLessThanOrEqual(20);
      } finally {
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
