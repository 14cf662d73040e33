/**
 * `npm run bench`: the rate limiter, measured in one run on loopback and printed (no
 * assertions: the machine is shared).
 *
 * Pacing: N calls at 20/s against six servers (test/helpers/strict-server.ts): a strict
 * sliding window, a strict one that stamps arrivals late under load (a simulated global lock),
 * the "gateway" (gateway-server.ts: strict, stamped by one process after 4 worker processes
 * parsed each request, so the machine's own scheduling spreads the stamps), the "threaded"
 * (threaded-server.py: Python's ThreadingHTTPServer at its defaults, a thread per connection
 * and one lock, a listen backlog of 5), and the service's documented limiter (refresh cycles, a
 * 500-ms wait before a 429), and the "late-reading" (test/limits/late-reading-server.ts: 4
 * workers answering in 0–150 ms, each reading the next queued request when it frees, its own
 * answer times its only profile); from 1 process
 * (in-process limiter) and from 3 and 6 processes sharing the budget through a throw-away
 * redis-server, each on a flat loopback, with answers taking 0–300 ms and 1–2.5 s (arrivals
 * prompt; the service counts arrivals, and launches or log downloads take seconds);
 * with BENCH_PROFILE=each, also 0–150 ms on each way. 429s are counted in all and after the first
 * second. Efficiency is against the physical limit, a burst of 20 then 20 per sliding second:
 * (N − 20)/20 s, over the time from the start line to the last answer (and, in brackets, to the
 * last arrival at the server, which leaves out how long the last answers took to come back).
 * The most in a 1-s window is given as the server stamped them and, in brackets, as the callers
 * wrote them to their sockets (the limiter's own pacing, before the machine's scheduling).
 *
 * Cost: per-call limiter cost far from the limit (`perSecond: 1e6`), alone and through the
 * client; pace reached at a configured 500/s; bytes per queued call; delay of the next call
 * after 10,000 queued calls aborted.
 *
 * Overhead: sequential GETs with the limiter off, raw fetch vs bare openapi-fetch vs our client.
 */
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import createClient from "openapi-fetch";
import type { paths } from "../../generated/schema.js";
import { createSeqeraClient } from "../../src/index.js";
import { createRateLimiter } from "../../src/limits/limiter.js";
import { startGatewayServer } from "../helpers/gateway-server.js";
import { startThreadedServer } from "../helpers/threaded-server.js";
import {
  maxInWindow,
  startStrictServer,
  type ServerLimiter,
  type StrictServer,
} from "../helpers/strict-server.js";
import { startAnswerServer } from "./answer-server.js";
import { startLateReadingServer } from "../limits/late-reading-server.js";
import {
  hasRedisServer,
  maxSentInWindow,
  startCaller,
  startRedis,
  type RedisServer,
} from "../limits/processes.js";
import { machineMs } from "../helpers/stamps.js";

const N = Number(process.env.BENCH_CALLS ?? 300);
const OVERHEAD_CALLS = Number(process.env.BENCH_OVERHEAD_CALLS ?? 4000);
// To run a part: BENCH_ONLY=cost|pacing, BENCH_PROFILE=<part of a profile's name>,
// BENCH_SERVER=<part of a server's name>, BENCH_PROCESSES=1,3 (which process counts).
const only = process.env.BENCH_ONLY;
const profileFilter = process.env.BENCH_PROFILE;
const serverFilter = process.env.BENCH_SERVER ?? "";
const processCounts = (process.env.BENCH_PROCESSES ?? "1,3,6").split(",").map(Number);
// BENCH_GATEWAY_PARSE_MS: CPU ms the gateway server spends on each request (a busier gateway).
const parseWorkMs = Number(process.env.BENCH_GATEWAY_PARSE_MS ?? 0);

const fmt = (x: number, digits = 3) => x.toFixed(digits);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const call = { method: "GET", path: "/bench", operationId: "bench" };

type Server = ServerLimiter | "gateway" | "threaded" | "late-reading";
const servers: Server[] = [
  "strict",
  "late-stamping",
  "gateway",
  "threaded",
  "documented",
  "late-reading",
];
/** Uniform random delays: before a request is counted, and after, before its answer leaves. */
interface Delays {
  forwardMaxMs?: number;
  backwardMaxMs?: number;
  backwardMinMs?: number;
}
const profiles: Record<string, Delays> = {
  "flat loopback": {},
  "answers 0–300 ms": { backwardMaxMs: 300 },
  "answers 1–2.5 s": { backwardMinMs: 1000, backwardMaxMs: 2500 },
  "0–150 ms each way": { forwardMaxMs: 150, backwardMaxMs: 150 },
};

/** The server `limiter` names, on `delays`: gateway-server.ts's, threaded-server.ts's or strict-server.ts's. */
async function startServer(
  limiter: Server,
  delays: Delays,
  perSecond: number,
): Promise<StrictServer & { flush?(): Promise<void> }> {
  if (limiter === "gateway") return startGatewayServer({ ...delays, perSecond, parseWorkMs });
  if (limiter === "threaded") {
    return startThreadedServer({ perSecond, ...delays });
  }
  if (limiter === "late-reading") return startLateReadingServer({ perSecond });
  const uniform = (max?: number, min = 0) =>
    max ? () => min + Math.random() * (max - min) : undefined;
  return startStrictServer({
    limiter,
    perSecond,
    forwardDelayMs: uniform(delays.forwardMaxMs),
    backwardDelayMs: uniform(delays.backwardMaxMs, delays.backwardMinMs),
  });
}

/**
 * Linux's count of connections dropped since boot because a listen backlog was full (TcpExt
 * ListenDrops, machine-wide): each such request reached its server a second late, when the
 * client's TCP sent its SYN again, and its slot is held that long. Undefined elsewhere.
 */
function listenDrops(): number | undefined {
  try {
    const lines = readFileSync("/proc/net/netstat", "utf8").split("\n");
    const header = lines.findIndex((line) => line.startsWith("TcpExt:"));
    const column = lines[header]!.split(" ").indexOf("ListenDrops");
    return column > 0 ? Number(lines[header + 1]!.split(" ")[column]) : undefined;
  } catch {
    return undefined;
  }
}

/** N calls split over `processes` callers started together; prints one line. */
async function pacing(
  label: string,
  processes: number,
  limiter: Server,
  delays: Delays,
  redis: RedisServer | undefined,
  perSecond = 20,
  n = N,
): Promise<void> {
  const strict = await startServer(limiter, delays, perSecond);
  try {
    const token = `bench-${Math.random()}`;
    const shares = Array.from(
      { length: processes },
      (_, i) => Math.floor(n / processes) + (i < n % processes ? 1 : 0),
    );
    const callers = shares.map((calls) =>
      startCaller({
        SERVER_URL: strict.url,
        TOKEN: token,
        CALLS: String(calls),
        REDIS_URL: redis?.url ?? "",
        PER_SECOND: String(perSecond),
        WAIT_GO: "1",
      }),
    );
    await Promise.all(callers.map((c) => c.ready));
    await strict.flush?.();
    const mark = strict.arrivals.length;
    const drops = listenDrops();
    // The machine is shared: the load it ran under goes with each figure.
    const load = loadavg()[0]!;
    const started = machineMs();
    for (const c of callers) c.go();
    const results = await Promise.all(callers.map((c) => c.exited(180_000)));
    await strict.flush?.();
    const finished = Math.max(...results.map((r) => r.result?.finished ?? NaN));
    const seconds = (finished - started) / 1000;
    const arrivals = strict.arrivals.slice(mark);
    const lastArrival = (Math.max(...arrivals.map((a) => a.at)) - started) / 1000;
    const rejected = arrivals.filter((a) => a.status === 429);
    const late = rejected.filter((a) => a.at - started > 1000).length;
    // The limiter learns from a 429: those after the first incident.
    const relapsed = rejected.filter((a) => a.at > rejected[0]!.at + 2000).length;
    const failures = results.flatMap((r) => r.result?.outcomes.filter((o) => o !== "200") ?? []);
    const failed = results.some((r) => r.result === undefined) ? NaN : failures.length;
    // What the failed calls ended with: a status, or the name of the error.
    const failedAs = [...new Set(failures)]
      .map((o) => `${o} × ${failures.filter((f) => f === o).length}`)
      .join(", ");
    const physical = (n - perSecond) / perSecond;
    console.log(
      `  ${label}: ${n} calls in ${fmt(seconds, 2)} s = ${fmt(physical / seconds)} of the ` +
        `physical limit (${fmt(physical, 1)} s) (to the last arrival: ${fmt(physical / lastArrival)}); ` +
        `max ${maxInWindow(arrivals, 1000)} in a 1-s window ` +
        `(${maxSentInWindow(
          results.flatMap((r) => r.result ?? []),
          1000,
        )} sent); ${rejected.length} × 429 ` +
        `(${late} after the first second, ${relapsed} over 2 s after the first); ${failed} failed${failedAs ? ` (${failedAs})` : ""}` +
        (drops === undefined ? "" : `; ${listenDrops()! - drops} SYNs dropped by a full backlog`) +
        `; load ${fmt(load, 2)}`,
    );
    if (perSecond !== 20) {
      // At high rates a burst takes this machine a while to push through: the pace between the
      // first arrivals of the first and the last burst leaves that out.
      const times = arrivals.map((a) => a.at).sort((a, b) => a - b);
      const span = (times[n - perSecond]! - times[0]!) / 1000;
      console.log(
        `    steady pace: ${fmt((n - perSecond) / span)} calls/s, ${fmt(physical / span)} of ${perSecond}/s`,
      );
    }
    // How long after a request was written the server counted it (its first attempt's).
    const sentAt = new Map<string, number>();
    for (const send of results.flatMap((r) => r.result?.sends ?? [])) {
      if (!sentAt.has(send.url)) sentAt.set(send.url, send.at);
    }
    const lateness = arrivals
      .filter((a) => a.n === 1 && sentAt.has(a.url))
      .map((a) => a.at - sentAt.get(a.url)!)
      .sort((a, b) => a - b);
    const quantile = (q: number) =>
      fmt(lateness[Math.min(lateness.length - 1, Math.floor(q * lateness.length))]!, 1);
    console.log(
      `    counted after it was written: median ${quantile(0.5)} ms, 99th percentile ${quantile(0.99)} ms, ` +
        `most ${quantile(1)} ms`,
    );
    const broken = results.filter((r) => r.code !== 0 || r.result === undefined);
    if (broken.length > 0) console.log("  callers failed:", broken.map((r) => r.stderr).join("\n"));
  } finally {
    await strict.close();
  }
}

async function pacingAll(): Promise<void> {
  const redis = hasRedisServer() ? await startRedis() : undefined;
  try {
    for (const limiter of servers.filter((s) => s.includes(serverFilter))) {
      for (const [name, delays] of Object.entries(profiles)) {
        if (profileFilter === undefined ? name.includes("each") : !name.includes(profileFilter)) {
          continue;
        }
        // Its requests arrive as the machine sends them: no forward delay to add.
        if (limiter === "threaded" && delays.forwardMaxMs) continue;
        // Its workers' own times (0–150 ms) are its answers': flat only.
        if (limiter === "late-reading" && Object.keys(delays).length > 0) continue;
        console.log(`pacing at 20/s, ${limiter} server, ${name}:`);
        for (const processes of processCounts) {
          const label =
            processes === 1 ? "1 process (in process)" : `${processes} processes (Redis)`;
          if (processes === 1) await pacing(label, 1, limiter, delays, undefined);
          else if (redis) await pacing(label, processes, limiter, delays, redis);
          else console.log(`  ${processes} processes: skipped (no redis-server)`);
        }
      }
    }
    if (profileFilter === undefined && serverFilter === "" && processCounts.includes(1)) {
      console.log("pacing at a configured 500/s, flat loopback:");
      await pacing("1 process (in process)", 1, "strict", {}, undefined, 500, 3000);
    }
  } finally {
    await redis?.stop();
  }
}

/** Acquire + done, one after the other, far from the limit. */
async function limiterCost(): Promise<void> {
  const limiter = createRateLimiter(`cost-${Math.random()}`, { perSecond: 1e6, perHour: null });
  const run = async (calls: number) => {
    const started = performance.now();
    for (let i = 0; i < calls; i++) (await limiter.acquire(call)).done();
    return ((performance.now() - started) / calls) * 1000;
  };
  await run(20_000); // warm up
  const samples = [await run(50_000), await run(50_000), await run(50_000)].sort((a, b) => a - b);
  console.log(`limiter cost far from the limit: ${fmt(samples[1]!, 2)} µs per acquire + done`);
}

function gc(): () => void {
  setFlagsFromString("--expose_gc");
  return runInNewContext("gc") as () => void;
}

/** Heap held per queued acquire (its CallInfo and AbortSignal included, as a call makes them). */
async function bytesPerQueued(): Promise<void> {
  const collect = gc();
  const limiter = createRateLimiter(`bytes-${Math.random()}`, { perSecond: 1, perHour: null });
  (await limiter.acquire(call)).done(); // the window is now full for a second
  const count = 20_000;
  for (const withSignal of [false, true]) {
    collect();
    const before = process.memoryUsage().heapUsed;
    const controllers: AbortController[] = [];
    const queued: Promise<unknown>[] = [];
    for (let i = 0; i < count; i++) {
      const controller = withSignal ? new AbortController() : undefined;
      if (controller) controllers.push(controller);
      const info = { method: "GET", path: "/workflow/{workflowId}", operationId: "Describe" };
      queued.push(limiter.acquire(info, controller?.signal).catch(() => {}));
    }
    collect();
    const bytes = (process.memoryUsage().heapUsed - before) / count;
    console.log(
      `bytes per queued call (${count} queued, ${withSignal ? "each with its own AbortSignal" : "no signal"}): ${fmt(bytes, 0)}`,
    );
    await limiter.close(); // settles them all
    await Promise.all(queued);
  }
}

/** After 10,000 queued calls abort, how late is the next call beyond its own wait? */
async function afterAborts(): Promise<void> {
  const limiter = createRateLimiter(`aborts-${Math.random()}`, { perSecond: 20, perHour: 40 });
  // Each slot counts from when it was taken (answered at once); they are taken 3 ms apart.
  (await limiter.acquire(call)).done();
  const first = performance.now();
  for (let i = 1; i < 20; i++) (await limiter.acquire(call)).done();
  const controllers = Array.from({ length: 10_000 }, () => new AbortController());
  const aborted = controllers.map((c) => limiter.acquire(call, c.signal).catch(() => {}));
  await sleep(100);
  const abortedAt = performance.now();
  for (const c of controllers) c.abort();
  await Promise.all(aborted);
  const settledMs = performance.now() - abortedAt;
  // The window frees 1005 ms after the first of the 20 slots; the next 20 use the rest of the
  // hour's 40.
  const free = first + 1005;
  const next = await limiter.acquire(call);
  const lateMs = performance.now() - Math.max(free, abortedAt);
  next.done();
  const more = await Promise.race([
    Promise.all(Array.from({ length: 19 }, () => limiter.acquire(call))).then(() => 19),
    sleep(3000).then(() => 0),
  ]);
  console.log(
    `10,000 queued calls aborted: all settled in ${fmt(settledMs, 1)} ms; the next call came ` +
      `${fmt(lateMs, 1)} ms after its slot freed; hourly units left for 19 more: ${more === 19 ? "yes" : "no"}`,
  );
  await limiter.close();
}

async function overhead(): Promise<void> {
  const server = await startAnswerServer({ workflow: { id: "abc", status: "SUCCEEDED" } });
  const baseUrl = server.url;
  const headers = { authorization: "Bearer bench-token" };
  const bare = createClient<paths>({ baseUrl, headers });
  // The client as shipped, retries on, with the limiter off, and on far from its limit.
  const client = createSeqeraClient({ token: "bench-token", baseUrl, rateLimit: false, env: {} });
  const limited = createSeqeraClient({
    token: `bench-${Math.random()}`,
    baseUrl,
    rateLimit: { perSecond: 1e6, perHour: null },
    env: {},
  });
  const params = { path: { workflowId: "abc" }, query: { workspaceId: 1 } };

  const cases: Record<string, () => Promise<unknown>> = {
    "raw fetch": async () =>
      (await fetch(`${baseUrl}/workflow/abc?workspaceId=1`, { headers })).json(),
    "bare openapi-fetch": () => bare.GET("/workflow/{workflowId}", { params }),
    ours: () => client.GET("/workflow/{workflowId}", { params }),
    "ours + limiter": () => limited.GET("/workflow/{workflowId}", { params }),
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
      `overhead, ${OVERHEAD_CALLS} sequential loopback GETs, median of ${rounds} ` +
        `interleaved rounds: ` +
        Object.keys(cases)
          .map((name) => `${name} ${fmt(per(name), 0)} µs/call`)
          .join(", "),
    );
    console.log(
      `  ours ÷ bare openapi-fetch = ${fmt(per("ours") / per("bare openapi-fetch"))}×, ` +
        `ours ÷ raw fetch = ${fmt(per("ours") / per("raw fetch"))}×, ` +
        `bare openapi-fetch ÷ raw fetch = ${fmt(per("bare openapi-fetch") / per("raw fetch"))}×; ` +
        `the limiter (1e6/s) adds ${fmt(per("ours + limiter") - per("ours"), 1)} µs/call`,
    );
  } finally {
    server.stop();
  }
}

const started = performance.now();
if (!only || only === "cost") {
  await overhead();
  await limiterCost();
  await bytesPerQueued();
  await afterAborts();
}
if (!only || only === "pacing") await pacingAll();
console.log(`limits bench: ${fmt((performance.now() - started) / 1000, 0)} s`);
