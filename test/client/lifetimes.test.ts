/**
 * Nothing of an attempt outlives it: no listener on the caller's signal, no timer, whatever the
 * attempt's end (answered, failed and retried, body streamed or cancelled).
 */
import { getEventListeners } from "node:events";
import { afterEach, describe, expect, test, vi } from "vitest";
import { ServerError } from "../../src/index.js";
import { clientFor } from "../helpers/client.js";
import { useTestServer } from "../helpers/server.js";

const server = await useTestServer();
/** A timeout no other timer in the process uses, so the attempts' timers can be told apart. */
const TIMEOUT_MS = 43_210;

/** Attempt timers started and not yet cleared. */
function trackAttemptTimers(): Set<unknown> {
  const pending = new Set<unknown>();
  const realSet = globalThis.setTimeout;
  const realClear = globalThis.clearTimeout;
  vi.spyOn(globalThis, "setTimeout").mockImplementation(((
    fn: () => void,
    ms?: number,
    ...args: unknown[]
  ) => {
    const handle = realSet(fn, ms, ...args);
    if (ms === TIMEOUT_MS) pending.add(handle);
    return handle;
  }) as typeof setTimeout);
  vi.spyOn(globalThis, "clearTimeout").mockImplementation(((handle?: NodeJS.Timeout) => {
    pending.delete(handle);
    realClear(handle);
  }) as typeof clearTimeout);
  return pending;
}
afterEach(() => {
  vi.restoreAllMocks();
});

describe("one long-lived signal given to every call", () => {
  test("after 200 failed, retried calls: no listener left on it, no MaxListenersExceededWarning, no timer", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    const pending = trackAttemptTimers();
    server.handle(() => ({ status: 503, body: { message: "down" } }));
    try {
      const shutdown = new AbortController();
      const client = clientFor(server, {
        token: `lifetimes-${Math.random()}`,
        timeoutMs: TIMEOUT_MS,
        retry: { maxAttempts: 2, baseDelayMs: 1 },
        rateLimit: { perSecond: 1000 },
      });
      for (let i = 0; i < 200; i++) {
        await expect(
          client.GET("/service-info", { signal: shutdown.signal }),
        ).rejects.toBeInstanceOf(ServerError);
      }
      expect(server.requests).toHaveLength(400);
      expect(getEventListeners(shutdown.signal, "abort")).toHaveLength(0);
      expect(pending.size).toBe(0);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning")).toEqual([]);
    } finally {
      process.off("warning", onWarning);
      server.handle(() => ({ body: {} }));
    }
  });

  test("50 concurrent calls on it: one listener, no MaxListenersExceededWarning; its abort ends them all", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    server.handle(() => ({ delayMs: 60_000 }));
    try {
      const batch = new AbortController();
      const client = clientFor(server, { timeoutMs: TIMEOUT_MS, rateLimit: { perSecond: 1000 } });
      const calls = Array.from({ length: 50 }, () =>
        client.GET("/service-info", { signal: batch.signal }).catch((error: unknown) => error),
      );
      while (server.requests.length < 50) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(getEventListeners(batch.signal, "abort")).toHaveLength(1);
      batch.abort(new Error("batch cancelled"));
      const errors = (await Promise.all(calls)) as Error[];
      expect(errors.map((e) => e.message)).toEqual(Array(50).fill("batch cancelled"));
      expect(getEventListeners(batch.signal, "abort")).toHaveLength(0);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning")).toEqual([]);
    } finally {
      process.off("warning", onWarning);
      server.handle(() => ({ body: {} }));
    }
  });

  test("a body handed over as a stream holds its attempt until read to the end, or cancelled", async () => {
    const pending = trackAttemptTimers();
    const signal = new AbortController().signal;
    const client = clientFor(server, { timeoutMs: TIMEOUT_MS });
    const download = () =>
      client.GET("/workflow/{workflowId}/download", {
        params: { path: { workflowId: "w1" } },
        parseAs: "stream",
        signal,
      });
    const page = { headers: { "content-type": "text/plain" }, body: "line\n".repeat(10_000) };
    server.reply(page, page);

    const read = await download();
    expect(pending.size).toBe(1);
    expect(getEventListeners(signal, "abort")).toHaveLength(1);
    expect(await new Response(read).text()).toHaveLength(50_000);
    expect(pending.size).toBe(0);
    expect(getEventListeners(signal, "abort")).toHaveLength(0);

    const cancelled = await download();
    expect(pending.size).toBe(1);
    await cancelled!.cancel();
    expect(pending.size).toBe(0);
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });
});
