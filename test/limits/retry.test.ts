import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { retryLayer } from "../../src/retry.js";
import type { LogEntry } from "../../src/transport.js";
import { startStrictServer, type Fault, type StrictServer } from "../helpers/strict-server.js";
import { call, stack } from "./stack.js";

/** Faults by route: the n-th arrival on a path gets `plan[path][n - 1]`. */
const plan = new Map<string, (Fault | undefined)[]>();
let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer({
    perSecond: 1000,
    fault: (a) => plan.get(a.url.split("?")[0]!)?.[a.n - 1],
  });
});
afterAll(() => server.close());

let seq = 0;
/** A fresh path with the given faults for its first arrivals. */
function route(...faults: (Fault | undefined)[]): string {
  const path = `/r/${++seq}`;
  plan.set(path, faults);
  return path;
}
const arrivals = (path: string) => server.count((a) => a.url === path);
const fast = retryLayer({ baseDelayMs: 20, maxDelayMs: 2000 });

describe("retry layer", () => {
  it("retries a 429 after Retry-After (0 meaning about a second) and logs each retry", async () => {
    const path = route(
      { status: 429, retryAfter: "0", body: '{"message":"Maximum request rate exceeded"}' },
      { status: 429, retryAfter: "1" },
    );
    const log: LogEntry[] = [];
    const response = await call(stack([fast]), server.url + path, { logger: (e) => log.push(e) });
    expect(response.status).toBe(200);
    expect(arrivals(path)).toBe(3);
    expect(log.map((e) => [e.attempt, e.status, e.retry?.reason])).toEqual([
      [1, 429, "HTTP 429"],
      [2, 429, "HTTP 429"],
      [3, 200, undefined],
    ]);
    // Retried attempts say why and how long they waited; the last one just ends the call.
    for (const entry of log.slice(0, -1)) expect(entry.retry!.delayMs).toBeGreaterThanOrEqual(1000);
    const [first, second] = server.arrivals.filter((a) => a.url === path);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1000);
  });

  it("retries a burst of 503 and a 502/504 on GET until it succeeds", async () => {
    const path = route({ status: 503 }, { status: 503 }, { status: 502 }, { status: 504 });
    const response = await call(stack([fast]), server.url + path);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ n: 5 });
    expect(arrivals(path)).toBe(5);
  });

  it("retries connection resets on GET, DELETE and PUT, resending the body", async () => {
    for (const method of ["GET", "DELETE", "PUT"]) {
      const path = route({ reset: true }, { reset: true });
      const body = method === "PUT" ? JSON.stringify({ name: "x".repeat(1000) }) : undefined;
      const response = await call(stack([fast]), server.url + path, { method, body });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ method, n: 3, body: body ?? "" });
      expect(arrivals(path)).toBe(3);
    }
  });

  it("retries an attempt that timed out without the caller aborting", async () => {
    const path = route({ delayMs: 3000 });
    const log: LogEntry[] = [];
    const response = await call(stack([fast], 300), server.url + path, {
      logger: (e) => log.push(e),
    });
    expect(response.status).toBe(200);
    expect(arrivals(path)).toBe(2);
    expect(log[0]?.retry?.reason).toBe("attempt timed out");
  });

  it("never sends a POST or PATCH twice without the caller's opt-in", async () => {
    for (const method of ["POST", "PATCH"]) {
      const reset = route({ reset: true });
      await expect(call(stack([fast]), server.url + reset, { method, body: "{}" })).rejects.toThrow(
        "fetch failed",
      );
      expect(arrivals(reset)).toBe(1);
      const unavailable = route({ status: 503 });
      const response = await call(stack([fast]), server.url + unavailable, { method, body: "{}" });
      expect(response.status).toBe(503);
      expect(arrivals(unavailable)).toBe(1);
      const limited = route({ status: 429, retryAfter: "0" });
      expect((await call(stack([fast]), server.url + limited, { method })).status).toBe(429);
      expect(arrivals(limited)).toBe(1);
    }
  });

  it("retries a POST the caller opted in for, with its body", async () => {
    const path = route({ reset: true }, { status: 503 });
    const body = JSON.stringify({ launch: "pipeline" });
    const response = await call(stack([fast]), server.url + path, {
      method: "POST",
      body,
      retryUnsafe: true,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ body, n: 3 });
  });

  it("returns the last response when attempts run out", async () => {
    const path = route(...Array<Fault>(5).fill({ status: 503 }));
    const response = await call(
      stack([retryLayer({ maxAttempts: 3, baseDelayMs: 10 })]),
      server.url + path,
    );
    expect(response.status).toBe(503);
    expect(arrivals(path)).toBe(3);
  });

  it("does not wait out a Retry-After longer than maxDelayMs: the 429 goes back", async () => {
    const path = route({ status: 429, retryAfter: "30" });
    const response = await call(stack([fast]), server.url + path);
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("30");
    expect(arrivals(path)).toBe(1);
  });

  it("stops before the next attempt once the time budget would be exceeded", async () => {
    const path = route({ status: 429, retryAfter: "1" }, { status: 429, retryAfter: "1" });
    const layer = retryLayer({ maxElapsedMs: 1500, baseDelayMs: 10 });
    const response = await call(stack([layer]), server.url + path);
    expect(response.status).toBe(429);
    expect(arrivals(path)).toBe(2);
  });

  it("does not retry other statuses", async () => {
    const path = route({ status: 500, body: '{"message":"boom - Error ID: x"}' }, { status: 400 });
    expect((await call(stack([fast]), server.url + path)).status).toBe(500);
    expect(arrivals(path)).toBe(1);
  });

  it("an abort during the wait between attempts rejects at once and sends nothing more", async () => {
    const path = route({ status: 503, retryAfter: "1" });
    const controller = new AbortController();
    const pending = call(stack([fast]), server.url + path, { signal: controller.signal });
    while (arrivals(path) === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(arrivals(path)).toBe(1);
  });

  it("the caller's timeout is final: a slow answer past it is not retried", async () => {
    const path = route({ delayMs: 3000 });
    await expect(
      call(stack([fast]), server.url + path, { signal: AbortSignal.timeout(200) }),
    ).rejects.toMatchObject({ name: "TimeoutError" });
    expect(arrivals(path)).toBe(1);
  });
});
