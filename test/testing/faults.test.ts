import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { startEmulator, type Emulator } from "../../src/testing/index.js";
import { api } from "./http.js";
import { ConfigurationError } from "../../src/index.js";

let emulator: Emulator;
beforeEach(async () => {
  emulator = await startEmulator({ rateLimit: false });
});
afterEach(() => emulator.close());

async function statuses(count: number): Promise<(number | "reset")[]> {
  const out: (number | "reset")[] = [];
  for (let i = 0; i < count; i++) {
    out.push(
      await api(emulator, "/user-info").then(
        (r) => r.status,
        () => "reset" as const,
      ),
    );
  }
  return out;
}

describe("fault knobs", () => {
  test("queued faults hit the next requests in order, then service resumes", async () => {
    emulator.faults.queue("unavailable", "reset", "unavailable");
    expect(await statuses(4)).toEqual([503, "reset", 503, 200]);
    expect(emulator.requests.map((r) => r.fault)).toEqual([
      "unavailable",
      "reset",
      "unavailable",
      undefined,
    ]);
    expect(emulator.requests[1]!.status).toBeUndefined();
  });

  test("a share of 503s is drawn from the seed, so a run can be replayed", async () => {
    emulator.faults.configure({ unavailableRate: 0.5, seed: 42 });
    const first = await statuses(20);
    emulator.faults.configure({ unavailableRate: 0.5, seed: 42 });
    expect(await statuses(20)).toEqual(first);
    const unavailable = first.filter((s) => s === 503).length;
    expect(unavailable).toBeGreaterThan(0);
    expect(unavailable).toBeLessThan(20);
    expect(first.filter((s) => s !== 503)).toEqual(Array(20 - unavailable).fill(200));
  });

  test("rates of 1 and 0 are all and nothing; resets close the connection unanswered", async () => {
    emulator.faults.configure({ resetRate: 1 });
    expect(await statuses(3)).toEqual(["reset", "reset", "reset"]);
    emulator.faults.configure({ resetRate: 0, unavailableRate: 0 });
    expect(await statuses(2)).toEqual([200, 200]);
  });

  test("a delay holds every answer back at least that long", async () => {
    emulator.faults.configure({ delayMs: 150 });
    const started = performance.now();
    expect(await statuses(1)).toEqual([200]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(150);
  });

  test("faults come before the service: a faulted request is not counted by the limiter", async () => {
    const limited = await startEmulator({ rateLimit: { perHour: 1 } });
    try {
      limited.faults.queue("unavailable");
      const call = () => api(limited, "/user-info").then((r) => r.status);
      expect([await call(), await call(), await call()]).toEqual([503, 200, 429]);
    } finally {
      await limited.close();
    }
  });

  test("rate-limited: the service's 429 (Retry-After 0, its message) whatever the load", async () => {
    emulator.faults.queue("rate-limited");
    const response = await api(emulator, "/user-info");
    expect([response.status, response.headers.get("retry-after")]).toEqual([429, "0"]);
    expect(await response.json()).toEqual({
      message: "Maximum request rate exceeded. Wait 0secs before issuing a new request",
    });
    emulator.faults.configure({ rateLimitedRate: 1 });
    expect(await statuses(2)).toEqual([429, 429]);
    expect(emulator.requests.map((r) => r.fault)).toEqual([
      "rate-limited",
      "rate-limited",
      "rate-limited",
    ]);
  });

  test("rates outside 0–1, or adding up to more than 1, are refused", () => {
    expect(() => emulator.faults.configure({ unavailableRate: 1.5 })).toThrow(ConfigurationError);
    expect(() => emulator.faults.configure({ resetRate: 0.6, rateLimitedRate: 0.6 })).toThrow(
      "The fault rates add up to more than 1",
    );
  });
});
