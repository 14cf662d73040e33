/**
 * The whole stack (retry outside the limiter) against a strict server that also misbehaves:
 * bursts of 429 and 503, connection resets and slow answers on the first attempts of each call.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { rateLimitLayer } from "../../src/rate-limit.js";
import { retryLayer } from "../../src/retry.js";
import {
  startStrictServer,
  type Arrival,
  type Fault,
  type StrictServer,
} from "../helpers/strict-server.js";
import { call, stack } from "./stack.js";

/** Deterministic faults: the first three arrivals of a path fail in a way chosen by its hash. */
function fault(arrival: Arrival): Fault | undefined {
  if (arrival.n > 3) return undefined;
  const roll = createHash("sha256").update(`${arrival.url}#${arrival.n}`).digest()[0]! / 256;
  if (roll < 0.25) return { status: 503 };
  if (roll < 0.4) return { reset: true };
  if (roll < 0.55)
    return {
      status: 429,
      retryAfter: "0",
      body: '{"message":"Maximum request rate exceeded. Wait 0secs before issuing a new request"}',
    };
  if (roll < 0.65) return { delayMs: 100 };
  return undefined;
}

let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer({ fault });
});
afterAll(() => server.close());

type Outcome =
  { kind: "ok" } | { kind: "status"; status: number } | { kind: "error"; error: unknown };

it("every logical call succeeds exactly once or fails visibly; no POST is sent twice", async () => {
  const token = `faults-${Math.random()}`;
  const transport = stack(
    [retryLayer({ baseDelayMs: 50, maxDelayMs: 2000 }), rateLimitLayer(token)],
    2000,
  );
  const plan = Array.from({ length: 90 }, (_, i) => ({
    path: `/f/${i}`,
    method: i % 3 === 0 ? "POST" : i % 3 === 1 ? "GET" : "PUT",
    retryUnsafe: i % 6 === 3, // half of the POSTs opt in
  }));
  const outcomes = await Promise.all(
    plan.map(({ path, method, retryUnsafe }) =>
      call(transport, server.url + path, {
        method,
        body: method === "GET" ? undefined : "{}",
        token,
        retryUnsafe,
      }).then(
        async (r): Promise<Outcome> => {
          await r.arrayBuffer();
          return r.status === 200 ? { kind: "ok" } : { kind: "status", status: r.status };
        },
        (error: unknown): Outcome => ({ kind: "error", error }),
      ),
    ),
  );

  const served = (path: string) => server.count((a) => a.url === path && a.status === 200);
  const sent = (path: string) => server.count((a) => a.url === path);
  plan.forEach(({ path, method, retryUnsafe }, i) => {
    const outcome = outcomes[i]!;
    const label = `${method} ${path} → ${JSON.stringify(outcome)}`;
    if (outcome.kind === "ok") expect(served(path), label).toBe(1);
    else expect(served(path), label).toBe(0);
    if (outcome.kind === "error") {
      expect(outcome.error, label).toBeInstanceOf(TypeError);
      expect((outcome.error as Error).message, label).toBe("fetch failed");
    }
    if (outcome.kind === "status") expect([429, 503], label).toContain(outcome.status);
    if (method === "POST" && !retryUnsafe) expect(sent(path), label).toBe(1);
    // Retryable calls get past three faulty attempts within five.
    if (method !== "POST" || retryUnsafe) expect(outcome.kind, label).toBe("ok");
  });
  // The faults did happen.
  expect(server.count((a) => a.reset === true)).toBeGreaterThan(5);
  expect(server.count((a) => a.status === 503)).toBeGreaterThan(5);
  expect(outcomes.filter((o) => o.kind !== "ok").length).toBeGreaterThan(0);
});
