/**
 * `npm run bench`: pacing efficiency of the rate limiter and overhead of the transport stack,
 * measured in one run on loopback and printed as ratios (no assertions: the machine is shared).
 *
 * Pacing: N calls at 20/s against a strict sliding-window server, in one process and across 3
 * processes sharing the budget through a throw-away redis-server. Efficiency is ideal time ÷
 * actual, against N/20 s and against the physical limit, a burst of 20 then 20 per sliding
 * second: (N − 20)/20 s.
 *
 * Overhead: sequential GETs with the limiter off, raw fetch vs bare openapi-fetch vs our client.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import createClient from "openapi-fetch";
import type { paths } from "../../generated/schema.js";
import { createSeqeraClient } from "../../src/index.js";
import { maxInWindow, startStrictServer } from "../helpers/strict-server.js";
import { hasRedisServer, startCaller, startRedis } from "../limits/processes.js";

const N = Number(process.env.BENCH_CALLS ?? 400);
const PROCESSES = 3;
const OVERHEAD_CALLS = Number(process.env.BENCH_OVERHEAD_CALLS ?? 4000);

const fmt = (x: number, digits = 3) => x.toFixed(digits);

function efficiencyLine(label: string, n: number, seconds: number, max: number, rejected: number) {
  const ideal = n / 20;
  const physical = (n - 20) / 20;
  console.log(
    `${label}: ${n} calls in ${fmt(seconds, 2)} s; efficiency ${fmt(ideal / seconds)} of N/20 s ` +
      `(${fmt(ideal, 1)} s), ${fmt(physical / seconds)} of the physical limit (${fmt(physical, 1)} s); ` +
      `max ${max} in any 1-s window, ${rejected} × 429`,
  );
}

async function pacingOneProcess(): Promise<void> {
  const server = await startStrictServer();
  try {
    const token = `bench-${Math.random()}`;
    // The client as shipped: default limits (20/s, 72,000/h) and retries.
    const client = createSeqeraClient({ token, baseUrl: server.url, env: {} });
    const started = performance.now();
    await Promise.all(
      Array.from({ length: N }, (_, i) =>
        client.request("GET", `/bench/${i}`, { parseAs: "text" }),
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    const rejected = server.count((a) => a.status === 429);
    efficiencyLine("pacing, 1 process", N, seconds, maxInWindow(server.arrivals, 1000), rejected);
  } finally {
    await server.close();
  }
}

async function pacingCluster(): Promise<void> {
  if (!hasRedisServer()) {
    console.log("pacing, 3 processes via Redis: skipped (no redis-server)");
    return;
  }
  const [server, redis] = await Promise.all([startStrictServer(), startRedis()]);
  try {
    const token = `bench-cluster-${Math.random()}`;
    const shares = Array.from(
      { length: PROCESSES },
      (_, i) => Math.floor(N / PROCESSES) + (i < N % PROCESSES ? 1 : 0),
    );
    const callers = shares.map((calls) =>
      startCaller({
        SERVER_URL: server.url,
        TOKEN: token,
        CALLS: String(calls),
        REDIS_URL: redis.url,
        WAIT_GO: "1",
      }),
    );
    await Promise.all(callers.map((c) => c.ready));
    // The callers' warm-up calls hold slots for about a second: let them expire first.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const started = performance.timeOrigin + performance.now();
    for (const c of callers) c.go();
    const results = await Promise.all(callers.map((c) => c.exited(120_000)));
    const finished = Math.max(...results.map((r) => r.result?.finished ?? NaN));
    const seconds = (finished - started) / 1000;
    const calls = server.arrivals.filter((a) => a.url.startsWith("/call/"));
    const rejected = server.count((a) => a.status === 429);
    efficiencyLine(
      `pacing, ${PROCESSES} processes via Redis`,
      N,
      seconds,
      maxInWindow(calls, 1000),
      rejected,
    );
    const failed = results.filter((r) => r.code !== 0 || r.result === undefined);
    if (failed.length > 0) console.log("  callers failed:", failed.map((r) => r.stderr).join("\n"));
  } finally {
    await Promise.all([server.close(), redis.stop()]);
  }
}

async function overhead(): Promise<void> {
  // The server runs in its own process, as a real one would: its work does not share the
  // client's event loop, which made the ratios swing between runs.
  const server = spawn(
    process.execPath,
    [
      "-e",
      `require("node:http").createServer((_, r) => {
         r.writeHead(200, { "content-type": "application/json" });
         r.end('{"workflow":{"id":"abc","status":"SUCCEEDED"}}');
       }).listen(0, "127.0.0.1", function () { console.log(this.address().port); });`,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const [port] = (await once(server.stdout!.setEncoding("utf8"), "data")) as [string];
  const baseUrl = `http://127.0.0.1:${port.trim()}`;
  const headers = { authorization: "Bearer bench-token" };
  const bare = createClient<paths>({ baseUrl, headers });
  // The client as shipped, retries on, with the limiter off (no Bottleneck in the path).
  const client = createSeqeraClient({ token: "bench-token", baseUrl, rateLimit: false, env: {} });
  const params = { path: { workflowId: "abc" }, query: { workspaceId: 1 } };

  const cases: Record<string, () => Promise<unknown>> = {
    "raw fetch": async () =>
      (await fetch(`${baseUrl}/workflow/abc?workspaceId=1`, { headers })).json(),
    "bare openapi-fetch": () => bare.GET("/workflow/{workflowId}", { params }),
    ours: () => client.GET("/workflow/{workflowId}", { params }),
  };
  try {
    const rounds = 20;
    const perRound = OVERHEAD_CALLS / rounds;
    const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, [] as number[]]));
    for (const run of Object.values(cases)) for (let i = 0; i < 200; i++) await run(); // warm up
    const entries = Object.entries(cases);
    for (let round = 0; round < rounds; round++) {
      // Interleaved rounds, each starting with another case, so drift in load hits all alike.
      const order = [
        ...entries.slice(round % entries.length),
        ...entries.slice(0, round % entries.length),
      ];
      for (const [name, run] of order) {
        const started = performance.now();
        for (let i = 0; i < perRound; i++) await run();
        samples[name]!.push(((performance.now() - started) / perRound) * 1000);
      }
    }
    // The median round of each case: a GC pause or a neighbour's burst moves one round, not it.
    const per = (name: string) => {
      const sorted = [...samples[name]!].sort((a, b) => a - b);
      return (sorted[(rounds - 1) >> 1]! + sorted[rounds >> 1]!) / 2;
    };
    console.log(
      `overhead, ${OVERHEAD_CALLS} sequential loopback GETs, limiter off, median of ${rounds} ` +
        `interleaved rounds: ` +
        Object.keys(cases)
          .map((name) => `${name} ${fmt(per(name), 0)} µs/call`)
          .join(", "),
    );
    console.log(
      `  ours ÷ bare openapi-fetch = ${fmt(per("ours") / per("bare openapi-fetch"))}×, ` +
        `ours ÷ raw fetch = ${fmt(per("ours") / per("raw fetch"))}×, ` +
        `bare openapi-fetch ÷ raw fetch = ${fmt(per("bare openapi-fetch") / per("raw fetch"))}×`,
    );
  } finally {
    server.kill();
  }
}

await overhead();
await pacingOneProcess();
await pacingCluster();
