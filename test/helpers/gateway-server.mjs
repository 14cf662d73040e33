/**
 * The "gateway" fixture's server process (started by gateway-server.ts; plain ESM, no tsx, so it
 * starts fast). A strict sliding-window limiter behind real parallelism: WORKERS cluster worker
 * processes share one loopback port (round-robin, keep-alive HTTP/1.1); each reads and parses a
 * whole request (headers, body, the token's hash) and only then asks this primary, over IPC, to
 * stamp it. The primary is one thread, so it is the global lock: arrivals are stamped in the
 * order their messages reach it, after the OS scheduled the worker that parsed them and the
 * primary. Nothing here models the delay; it is whatever the machine does.
 *
 * Env: PER_SECOND (20), WINDOW_MS (1000), WORKERS (4), PARSE_WORK_MS (CPU each worker spends
 * on a request after reading it, as a busier gateway's parsing and auth; 0), FORWARD_MAX_MS and
 * BACKWARD_MAX_MS (a uniform random delay in [0, max) before the stamp request, and after the
 * stamp before the answer, there from BACKWARD_MIN_MS; 0 for none).
 *
 * To the parent, over the IPC channel it must open: {type: "ready", url, pids} once every worker
 * listens; {type: "arrival", arrival} for each stamp, sent before the worker may answer, so an
 * answered request's arrival is always ahead of a later {type: "flushed"} (the answer to
 * {type: "flush", id}). The primary ends its workers and exits on SIGTERM or when the parent's
 * channel closes (the parent died): nothing outlives the parent.
 */
import cluster from "node:cluster";
import { createHash } from "node:crypto";
import { createServer } from "node:http";

const env = process.env;
const number = (name, fallback) => (env[name] ? Number(env[name]) : fallback);
const uniform = (max) => (max > 0 ? Math.random() * max : 0);
const later = (ms, run) => (ms > 0 ? setTimeout(run, ms) : run());
const RATE_MESSAGE = (seconds) =>
  `Maximum request rate exceeded. Wait ${seconds}secs before issuing a new request`;

if (cluster.isPrimary) primary();
else worker();

function primary() {
  const perSecond = number("PER_SECOND", 20);
  const windowMs = number("WINDOW_MS", 1000);
  const count = number("WORKERS", 4);
  cluster.schedulingPolicy = cluster.SCHED_RR;
  const recent = new Map();
  const perRoute = new Map();
  const toParent = (message) => process.connected && process.send(message);

  /** Stamps a parsed request; returns its status and Retry-After (strict-server.ts's rule). */
  const stamp = ({ key, method, url }) => {
    // machineMs (stamps.ts): the clock the other processes stamp with.
    const at = Number(process.hrtime.bigint()) / 1e6;
    const route = `${method} ${url.split("?")[0]}`;
    const n = (perRoute.get(route) ?? 0) + 1;
    perRoute.set(route, n);
    const times = (recent.get(key) ?? []).filter((t) => t > at - windowMs);
    times.push(at);
    recent.set(key, times);
    const over = times.length > perSecond;
    const status = over ? 429 : 200;
    toParent({ type: "arrival", arrival: { at, key, method, url, n, status } });
    return over
      ? { status, n, retryAfter: Math.max(0, Math.ceil((times[0] + windowMs - at) / 1000)) }
      : { status, n };
  };

  const workers = Array.from({ length: count }, () => cluster.fork());
  let listening = 0;
  for (const w of workers) {
    w.on("message", (message) => {
      if (message.type === "stamp") w.send({ type: "stamped", id: message.id, ...stamp(message) });
    });
    w.once("listening", ({ port }) => {
      if (++listening === count) {
        const pids = [process.pid, ...workers.map((x) => x.process.pid)];
        toParent({ type: "ready", url: `http://127.0.0.1:${port}`, pids });
      }
    });
  }
  process.on("message", (message) => {
    if (message.type === "flush") toParent({ type: "flushed", id: message.id });
  });

  // Workers end with this process: it exits once each of them has (reaped, no zombie left).
  let ending = false;
  const end = () => {
    if (ending) return;
    ending = true;
    const alive = workers.filter((w) => w.process.exitCode === null && !w.process.signalCode);
    let left = alive.length;
    if (left === 0) process.exit(0);
    for (const w of alive) {
      w.once("exit", () => --left === 0 && process.exit(0));
      w.process.kill("SIGKILL");
    }
  };
  process.on("SIGTERM", end);
  process.on("disconnect", end);
  cluster.on("exit", () => end());
}

function worker() {
  const forwardMaxMs = number("FORWARD_MAX_MS", 0);
  const backwardMaxMs = number("BACKWARD_MAX_MS", 0);
  const backwardMinMs = number("BACKWARD_MIN_MS", 0);
  const parseWorkMs = number("PARSE_WORK_MS", 0);
  const waiting = new Map();
  let nextId = 0;
  process.on("message", (message) => {
    if (message.type !== "stamped") return;
    const answer = waiting.get(message.id);
    waiting.delete(message.id);
    answer(message);
  });

  const server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      const key = createHash("sha256")
        .update(request.headers.authorization ?? "")
        .digest("hex")
        .slice(0, 16);
      const method = request.method ?? "";
      const url = request.url ?? "";
      // Busy, not asleep: the work competes for the cores with the callers and other workers.
      for (const until = performance.now() + parseWorkMs; performance.now() < until;);
      later(uniform(forwardMaxMs), () => {
        const id = nextId++;
        waiting.set(id, ({ status, n, retryAfter }) => {
          const json =
            status === 429 ? { message: RATE_MESSAGE(retryAfter) } : { method, url, n, body };
          const headers = { "content-type": "application/json" };
          if (retryAfter !== undefined) headers["retry-after"] = String(retryAfter);
          later(backwardMinMs + uniform(backwardMaxMs - backwardMinMs), () => {
            response.writeHead(status, headers);
            response.end(JSON.stringify(json));
          });
        });
        process.send({ type: "stamp", id, key, method, url });
      });
    });
  });
  server.listen(0, "127.0.0.1");
}
