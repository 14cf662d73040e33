/**
 * Retries, end to end through the client against a loopback server that fails on cue: the
 * n-th arrival on a route gets the n-th scripted answer, later ones a 200 echoing the request.
 */
import { describe, expect, test } from "vitest";
import {
  ConnectionError,
  RateLimitError,
  ServerError,
  type SeqeraClientOptions,
} from "../../src/index.js";
import { type LogEntry } from "../../src/http/log.js";
import { clientFor } from "../helpers/client.js";
import { useTestServer, type ScriptedResponse } from "../helpers/server.js";

const plan = new Map<string, ScriptedResponse[]>();
const arrivalsSoFar = new Map<string, number>();
const server = await useTestServer((request) => {
  const n = (arrivalsSoFar.get(request.pathname) ?? 0) + 1;
  arrivalsSoFar.set(request.pathname, n);
  return (
    plan.get(request.pathname)?.[n - 1] ?? {
      body: { n, method: request.method, body: request.body.toString() },
    }
  );
});

let seq = 0;
/** A fresh route (a path the schema does not list) with these answers for its first arrivals. */
function route(...answers: ScriptedResponse[]): string {
  const path = `/r/${++seq}`;
  plan.set(path, answers);
  return path;
}
const arrivals = (path: string) => server.requests.filter((r) => r.pathname === path);
const reset: ScriptedResponse = { destroy: true };
const status = (code: number, retryAfter?: string): ScriptedResponse => ({
  status: code,
  headers: retryAfter === undefined ? {} : { "retry-after": retryAfter },
  body: { message: `status ${code}` },
});
const client = (options: SeqeraClientOptions = {}) =>
  clientFor(server, { retry: { baseDelayMs: 20, maxDelayMs: 2000 }, ...options });
type Echo = { n: number; method: string; body: string };
const call = (path: string, init: Record<string, unknown> = {}, options?: SeqeraClientOptions) =>
  client(options).request(String(init.method ?? "GET"), path, {
    ...init,
    method: undefined,
  } as never) as Promise<Echo>;

describe("429: retried for every method, after Retry-After", () => {
  test("waits for Retry-After (0 meaning about a second) and logs each retry", async () => {
    const path = route(status(429, "0"), status(429, "1"));
    const log: LogEntry[] = [];
    const data = await call(path, {}, { logger: (e) => log.push(e) });
    expect(data.n).toBe(3);
    expect(log.map((e) => [e.attempt, e.status, e.retry?.reason])).toEqual([
      [1, 429, "HTTP 429"],
      [2, 429, "HTTP 429"],
      [3, 200, undefined],
    ]);
    for (const entry of log.slice(0, -1)) expect(entry.retry!.delayMs).toBeGreaterThanOrEqual(1000);
    const [first, second] = arrivals(path);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(990);
  });

  test.each(["POST", "PATCH"])(
    "a %s answered 429 is sent again (the service did nothing): exactly two arrivals",
    async (method) => {
      const path = route(status(429, "0"));
      const data = await call(path, { method, body: { launch: "x" } });
      expect(data).toEqual({ n: 2, method, body: '{"launch":"x"}' });
      expect(arrivals(path)).toHaveLength(2);
    },
  );

  test.each(["soon", "-3", "1.5", "NaN", "Infinity", "1e3", "", "Wed, 99 Foo 2025 00:00:00 GMT"])(
    "a garbage Retry-After %j is read as absent: about a second",
    async (value) => {
      const path = route(status(429, value));
      const log: LogEntry[] = [];
      await expect(call(path, {}, { logger: (e) => log.push(e) })).resolves.toMatchObject({ n: 2 });
      const delay = log[0]!.retry!.delayMs;
      expect(delay).toBeGreaterThanOrEqual(1000);
      expect(delay).toBeLessThanOrEqual(1100);
    },
  );

  test("does not wait out a Retry-After longer than maxDelayMs: the RateLimitError goes back", async () => {
    const path = route(status(429, "30"));
    const error = await call(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(30);
    expect(arrivals(path)).toHaveLength(1);
  });
});

describe("other failures: GET, HEAD, OPTIONS, PUT, DELETE", () => {
  test("retries a burst of 503 and a 502/504 until it succeeds", async () => {
    const path = route(status(503), status(503), status(502), status(504));
    await expect(call(path)).resolves.toMatchObject({ n: 5 });
    expect(arrivals(path)).toHaveLength(5);
  });

  test("retries connection resets on GET, DELETE and PUT, resending the body", async () => {
    for (const method of ["GET", "DELETE", "PUT"]) {
      const path = route(reset, reset);
      const body = method === "PUT" ? { name: "x".repeat(1000) } : undefined;
      const data = await call(path, { method, body });
      expect(data).toEqual({ n: 3, method, body: body ? JSON.stringify(body) : "" });
      expect(arrivals(path).map((r) => r.body.toString())).toEqual(
        Array(3).fill(body ? JSON.stringify(body) : ""),
      );
    }
  });

  test("retries an attempt that timed out without the caller aborting", async () => {
    const path = route({ delayMs: 3000, body: {} });
    const log: LogEntry[] = [];
    await expect(
      call(path, {}, { timeoutMs: 300, logger: (e) => log.push(e) }),
    ).resolves.toMatchObject({ n: 2 });
    expect(log[0]?.retry?.reason).toBe("attempt timed out");
  });

  test("returns the last error when attempts run out", async () => {
    const path = route(...Array<ScriptedResponse>(5).fill(status(503)));
    const error = await call(path, {}, { retry: { maxAttempts: 3, baseDelayMs: 10 } }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ServerError);
    expect(arrivals(path)).toHaveLength(3);
  });

  test("stops before the next attempt once the time budget would be exceeded", async () => {
    const path = route(status(429, "1"), status(429, "1"));
    const error = await call(path, {}, { retry: { maxElapsedMs: 1500, baseDelayMs: 10 } }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RateLimitError);
    expect(arrivals(path)).toHaveLength(2);
  });

  test("does not retry other statuses", async () => {
    const path = route(status(500), status(400));
    await expect(call(path)).rejects.toBeInstanceOf(ServerError);
    expect(arrivals(path)).toHaveLength(1);
  });

  test("retry: false sends once", async () => {
    const path = route(status(503));
    await expect(call(path, {}, { retry: false })).rejects.toBeInstanceOf(ServerError);
    expect(arrivals(path)).toHaveLength(1);
  });
});

describe("POST and PATCH", () => {
  test("are never sent twice after a reset or a 503 without the caller's opt-in", async () => {
    for (const method of ["POST", "PATCH"]) {
      const dropped = route(reset);
      await expect(call(dropped, { method, body: {} })).rejects.toBeInstanceOf(ConnectionError);
      expect(arrivals(dropped)).toHaveLength(1);
      const unavailable = route(status(503));
      await expect(call(unavailable, { method, body: {} })).rejects.toBeInstanceOf(ServerError);
      expect(arrivals(unavailable)).toHaveLength(1);
    }
  });

  test("are retried, with their body, when the call opts in", async () => {
    const path = route(reset, status(503));
    const body = { launch: "pipeline" };
    await expect(call(path, { method: "POST", body, retryUnsafe: true })).resolves.toEqual({
      n: 3,
      method: "POST",
      body: JSON.stringify(body),
    });
  });
});

describe("the caller's signal", () => {
  test("an abort during the wait between attempts rejects at once and sends nothing more", async () => {
    const path = route(status(503, "1"));
    const controller = new AbortController();
    const pending = call(path, { signal: controller.signal });
    while (arrivals(path).length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(arrivals(path)).toHaveLength(1);
  });

  test("the caller's timeout is final: a slow answer past it is not retried", async () => {
    const path = route({ delayMs: 3000, body: {} });
    const error = await call(path, { signal: AbortSignal.timeout(200) }).catch((e: unknown) => e);
    // The caller's own reason (a DOMException), not the client's TimeoutError.
    expect(error).toBeInstanceOf(DOMException);
    expect(error).toMatchObject({ name: "TimeoutError" });
    expect(arrivals(path)).toHaveLength(1);
  });
});
