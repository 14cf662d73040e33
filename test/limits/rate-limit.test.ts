import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rateLimitLayer } from "../../src/rate-limit.js";
import { maxInWindow, startStrictServer, type StrictServer } from "../helpers/strict-server.js";
import { startCaller } from "./processes.js";
import { call, stack } from "./stack.js";

let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer();
});
afterAll(() => server.close());

/** Each test uses its own token, hence its own budget (limiters live for the process). */
const token = (name: string) => `token-${name}-${Math.random()}`;
const arrivalsOf = (prefix: string) => server.count((a) => a.url.startsWith(prefix));

describe("rate limiter (in process)", () => {
  it("the strict server rejects a burst above 20 per second sent without a limiter", async () => {
    const t = token("raw");
    const transport = stack([]);
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => call(transport, `${server.url}/raw/${i}`, { token: t })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 429).length, String(statuses)).toBe(10);
  });

  it("sends 60 concurrent calls with at most 20 in any sliding second and no 429", async () => {
    const t = token("pace");
    const transport = stack([rateLimitLayer(t)]);
    const statuses = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        call(transport, `${server.url}/pace/${i}`, { token: t }).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(60);
    const mine = server.arrivals.filter((a) => a.url.startsWith("/pace/"));
    expect(mine).toHaveLength(60);
    expect(mine.filter((a) => a.status === 429)).toHaveLength(0);
    // At most 20 in any second, and a full burst of 20 did go out: no pacing below the limit.
    expect(maxInWindow(mine, 1000)).toBe(20);
  });

  it("two layers on one token share one budget", async () => {
    const t = token("shared");
    const a = stack([rateLimitLayer(t, { perSecond: 5 })]);
    const b = stack([rateLimitLayer(t, { perSecond: 5 })]);
    const before = server.arrivals.length;
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        call(i % 2 ? a : b, `${server.url}/shared/${i}`, { token: t }),
      ),
    );
    const mine = server.arrivals.slice(before).filter((x) => x.url.startsWith("/shared/"));
    expect(mine).toHaveLength(12);
    expect(maxInWindow(mine, 1000)).toBe(5);
  });

  it("holds the call past the hourly budget in the queue until it is aborted", async () => {
    const t = token("hourly");
    const transport = stack([rateLimitLayer(t, { perSecond: 20, perHour: 25 })]);
    const first = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        call(transport, `${server.url}/hourly/${i}`, { token: t }).then((r) => r.status),
      ),
    );
    expect(first.filter((s) => s === 200)).toHaveLength(25);

    const controller = new AbortController();
    const over = call(transport, `${server.url}/hourly/over`, {
      token: t,
      signal: controller.signal,
    });
    // Well past the 1-s window: only the hourly budget can still be holding it.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(arrivalsOf("/hourly/over")).toBe(0);
    controller.abort();
    await expect(over).rejects.toMatchObject({ name: "AbortError" });
    expect(arrivalsOf("/hourly/")).toBe(25);
  });

  it("an aborted queued call is never sent and gives its slot back at once", async () => {
    const t = token("abort");
    const transport = stack([rateLimitLayer(t, { perSecond: 2 })]);
    const send = (name: string, signal?: AbortSignal) =>
      call(transport, `${server.url}/abort/${name}`, { token: t, signal });
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

  it("an already aborted signal rejects without queueing", async () => {
    const t = token("pre-aborted");
    const transport = stack([rateLimitLayer(t)]);
    await expect(
      call(transport, `${server.url}/pre-aborted`, { token: t, signal: AbortSignal.abort() }),
    ).rejects.toMatchObject({ name: "AbortError" });
    expect(arrivalsOf("/pre-aborted")).toBe(0);
  });

  it("rejects impossible limits", () => {
    expect(() => rateLimitLayer("t", { perSecond: 0 })).toThrow(RangeError);
    expect(() => rateLimitLayer("t", { perHour: 1.5 })).toThrow(RangeError);
    expect(() => rateLimitLayer("t", { windowMarginMs: -1 })).toThrow(RangeError);
  });
});

describe("process lifetime", () => {
  it("a process whose calls are done exits by itself, queued calls all sent first", async () => {
    const caller = startCaller({ SERVER_URL: server.url, TOKEN: token("exit"), CALLS: "45" });
    const { code, result, stderr } = await caller.exited(20_000);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(result).toMatchObject({ ok: 45, statuses: [200], bottleneckLoaded: true });
  });

  it("with the limiter off, Bottleneck is not loaded at all", async () => {
    const caller = startCaller({
      SERVER_URL: server.url,
      TOKEN: token("off"),
      CALLS: "5",
      LIMITER: "off",
    });
    const { code, result } = await caller.exited(20_000);
    expect(code).toBe(0);
    expect(result).toMatchObject({ ok: 5, bottleneckLoaded: false });
  });
});
