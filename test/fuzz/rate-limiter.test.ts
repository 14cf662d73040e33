/**
 * The rate limiter: for any schedule of calls (when each starts, how long its answer takes,
 * whether it is aborted, its timeoutMs), through the real client to a server that keeps the
 * service's limit: no more than the limit leave in any window (written to the socket: a loaded
 * server reads them late, bunched), and no call waits past its timeoutMs or its signal.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSeqeraClient } from "../../src/index.js";
import { maxInWindow, startStrictServer, type StrictServer } from "../helpers/strict-server.js";
import { recordSends } from "../limits/stack.js";
import { runs, timeoutFor } from "./settings.js";

const PER_SECOND = 5;
/**
 * How late past its timeout or abort a call may settle: the event loop of a loaded 2-core
 * machine, not a pacing target (those are the benchmarks').
 */
const SLACK_MS = 1_500;

let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer({
    perSecond: PER_SECOND,
    fault: (arrival) => ({ delayMs: Number(/latency=(\d+)/.exec(arrival.url)?.[1] ?? 0) }),
  });
});
afterAll(() => server.close());

interface ScheduledCall {
  startMs: number;
  latencyMs: number;
  /** 0: no timeout. */
  timeoutMs: number;
  abortMs: number | undefined;
}

const schedule = fc.array(
  fc.record<ScheduledCall>({
    startMs: fc.integer({ min: 0, max: 400 }),
    latencyMs: fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 500, max: 1_500 })),
    timeoutMs: fc.oneof(fc.constant(0), fc.integer({ min: 100, max: 1_000 })),
    abortMs: fc.option(fc.integer({ min: 0, max: 800 }), { nil: undefined }),
  }),
  { minLength: 1, maxLength: 3 * PER_SECOND },
);

let round = 0;

/** Runs the schedule on a token of its own; resolves when every call has settled. */
async function play(calls: ScheduledCall[]) {
  const prefix = `/rl${++round}/`;
  const recording = recordSends();
  const client = createSeqeraClient({
    baseUrl: server.url,
    token: `fuzz-${round}-${Math.random()}`,
    rateLimit: { perSecond: PER_SECOND },
    retry: false,
    env: {},
  });
  const outcomes = await Promise.all(
    calls.map(async (scheduled, i) => {
      await new Promise((resolve) => setTimeout(resolve, scheduled.startMs));
      const started = performance.now();
      const signal =
        scheduled.abortMs === undefined ? undefined : AbortSignal.timeout(scheduled.abortMs);
      try {
        await client.request("GET", `${prefix}${i}?latency=${scheduled.latencyMs}`, {
          timeoutMs: scheduled.timeoutMs,
          signal,
        });
      } catch {
        // Any outcome: a 429, a timeout, an abort; only when it came is checked.
      }
      return { scheduled, tookMs: performance.now() - started };
    }),
  );
  await client.close();
  recording.stop();
  return { outcomes, sends: recording.sends.filter((send) => send.url.startsWith(prefix)) };
}

describe("the rate limiter", () => {
  test(
    "any schedule: no more than the limit leave in any window",
    async () => {
      await fc.assert(
        fc.asyncProperty(schedule, async (calls) => {
          const { sends } = await play(calls);
          expect(maxInWindow(sends, 1000)).toBeLessThanOrEqual(PER_SECOND);
        }),
        runs(4),
      );
    },
    timeoutFor(4, 10_000),
  );

  // The schedule given first: 5 calls never answered in time take every slot, then one with
  // timeoutMs 200 waits behind them; it fails with a TimeoutError after 200 ms, unsent.
  test(
    "any schedule: no call waits past its timeoutMs or its signal",
    async () => {
      await fc.assert(
        fc.asyncProperty(schedule, async (calls) => {
          const { outcomes } = await play(calls);
          for (const { scheduled, tookMs } of outcomes) {
            const bounds = [scheduled.abortMs, scheduled.timeoutMs || undefined].filter(
              (ms) => ms !== undefined,
            );
            if (bounds.length === 0) continue;
            expect(tookMs, JSON.stringify(scheduled)).toBeLessThan(Math.min(...bounds) + SLACK_MS);
          }
        }),
        {
          ...runs(4, [
            [
              [
                ...Array.from({ length: PER_SECOND }, () => ({
                  startMs: 0,
                  latencyMs: 2_500,
                  timeoutMs: 0,
                  abortMs: undefined,
                })),
                { startMs: 100, latencyMs: 0, timeoutMs: 200, abortMs: undefined },
              ],
            ],
          ]),
          endOnFailure: true,
        },
      );
    },
    timeoutFor(4, 10_000),
  );
});
