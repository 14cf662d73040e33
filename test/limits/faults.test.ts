/**
 * The whole call path (rate limiter, retries, attempts) against a server that misbehaves on the
 * first three arrivals of each call: bursts of 429 and 503, connection resets, bodies that break
 * off, slow answers.
 */
import { createHash } from "node:crypto";
import { expect, test } from "vitest";
import { SeqeraApiError } from "../../src/index.js";
import { clientFor } from "../helpers/client.js";
import {
  resetMidBody,
  shortBody,
  useTestServer,
  type ScriptedResponse,
} from "../helpers/server.js";

type Fault = "503" | "reset" | "429" | "slow" | "broken body" | "short body";

/** Deterministic faults: the first three arrivals of a path fail in a way chosen by its hash. */
function faultOf(path: string, n: number): Fault | undefined {
  if (n > 3) return undefined;
  const roll = createHash("sha256").update(`${path}#${n}`).digest()[0]! / 256;
  if (roll < 0.2) return "503";
  if (roll < 0.3) return "reset";
  if (roll < 0.45) return "429";
  if (roll < 0.55) return "slow";
  if (roll < 0.62) return "broken body";
  if (roll < 0.7) return "short body";
  return undefined;
}
const ANSWERS: Record<Fault, ScriptedResponse> = {
  "503": { status: 503, body: { message: "unavailable" } },
  reset: { destroy: true },
  "429": {
    status: 429,
    headers: { "retry-after": "0" },
    body: { message: "Maximum request rate exceeded. Wait 0secs before issuing a new request" },
  },
  slow: { delayMs: 100, body: { ok: true } },
  "broken body": resetMidBody(),
  "short body": shortBody(),
};

/** What each arrival got, by path. */
const got = new Map<string, (Fault | "ok")[]>();
const server = await useTestServer((request) => {
  const seen = got.get(request.pathname) ?? [];
  got.set(request.pathname, seen);
  const fault = faultOf(request.pathname, seen.length + 1);
  seen.push(fault === "slow" ? "ok" : (fault ?? "ok"));
  return fault ? ANSWERS[fault] : { body: { ok: true } };
});

test("every logical call succeeds exactly once or fails visibly; a POST is sent again only after a 429", async () => {
  const client = clientFor(server, {
    token: `faults-${Math.random()}`,
    rateLimit: { perSecond: 50 },
    retry: { baseDelayMs: 50, maxDelayMs: 2000 },
    // Bounds each attempt's wait for a slot too: 90 calls and their retries at 50/s queue about a
    // second on a quiet machine, and on two cores at a load of 20 (this process also being the
    // server) the first answers came late enough that calls waited past 2 s, unsent.
    timeoutMs: 10_000,
  });
  const plan = Array.from({ length: 90 }, (_, i) => ({
    path: `/f/${i}`,
    method: i % 3 === 0 ? "POST" : i % 3 === 1 ? "GET" : "PUT",
    retryUnsafe: i % 6 === 3, // half of the POSTs opt in
  }));
  const outcomes = await Promise.all(
    plan.map(({ path, method, retryUnsafe }) =>
      client.request(method, path, { body: method === "GET" ? undefined : {}, retryUnsafe }).then(
        () => ({ ok: true as const }),
        (error: unknown) => ({ ok: false as const, error }),
      ),
    ),
  );

  plan.forEach(({ path, method, retryUnsafe }, i) => {
    const outcome = outcomes[i]!;
    const answers = got.get(path) ?? [];
    const label = `${method} ${path} → ${answers.join(", ")}`;
    // A success came from exactly one clean answer; a failure from none, and is typed.
    expect(answers.filter((a) => a === "ok").length, label).toBe(outcome.ok ? 1 : 0);
    if (!outcome.ok) expect(outcome.error, label).toBeInstanceOf(SeqeraApiError);
    if (method === "POST" && !retryUnsafe) {
      // Sent again only after a 429: the service did nothing with it.
      answers.slice(0, -1).forEach((answer) => expect(answer, label).toBe("429"));
    } else {
      // Retryable calls get past three faulty attempts within five.
      expect(outcome.ok, label).toBe(true);
    }
  });
  const all = [...got.values()].flat();
  for (const fault of ["503", "reset", "429", "broken body", "short body"]) {
    expect(all.filter((a) => a === fault).length, fault).toBeGreaterThan(2);
  }
  expect(outcomes.filter((o) => !o.ok).length).toBeGreaterThan(0);
});
