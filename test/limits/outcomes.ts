/** Checks on what fixture callers (limits-caller.ts) did, against what the strict server saw. */
import { expect } from "vitest";
import type { StrictServer } from "../helpers/strict-server.js";
import type { Caller, CallerResult } from "./processes.js";

/** Outcomes a call may end with when the limiter is faulted: sent and answered, or not sent. */
const SETTLED = new Set(["200", "RateLimiterUnavailableError"]);

/**
 * Each caller exited by itself within `limitMs` with a clean stderr; each of its calls settled
 * with a 200 or a typed RateLimiterUnavailableError; a 200 was answered exactly once (a 429'd
 * attempt may have been resent) and a call that failed was never sent. Returns the results.
 */
export async function expectEachCallSettledOnce(
  callers: Caller[],
  server: StrictServer,
  limitMs: number,
): Promise<CallerResult[]> {
  const exits = await Promise.all(callers.map((c) => c.exited(limitMs)));
  const results: CallerResult[] = [];
  for (const { code, result, stderr } of exits) {
    expect(stderr, "child's stderr").toBe("");
    expect(code, stderr).toBe(0);
    expect(result, stderr).toBeDefined();
    const unsettled = result!.outcomes.filter((o) => !SETTLED.has(o));
    expect(unsettled, "calls ending otherwise").toEqual([]);
    const pid = result!.pid;
    for (const [i, outcome] of result!.outcomes.entries()) {
      const seen = server.arrivals.filter((a) => a.url === `/call/${pid}/${i}` && a.status !== 429);
      expect(seen.length, `arrivals of call ${i} (${outcome})`).toBe(outcome === "200" ? 1 : 0);
    }
    results.push(result!);
  }
  return results;
}
