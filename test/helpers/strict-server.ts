/**
 * A loopback HTTP server that enforces the service's rate limit, by default strictly: more than
 * `perSecond` arrivals for one token in any sliding window of `windowMs` get the service's 429.
 * It records every arrival (time, method, path, status) so tests can check what the server saw,
 * and can inject faults: error statuses, connection resets, slow answers. Delays model a
 * network: a forward delay holds a request before it arrives (is counted), a backward delay
 * holds the answer after it was counted.
 *
 * Two more servers we did not write, as fixtures (`limiter`):
 * - "late-stamping": strict too, but stamps each arrival only after holding one global lock
 *   for `STAMP_MS` (as a gateway that parses each request on its own thread under one lock):
 *   a burst of 20 is stamped over 30 ms, a lone request at once.
 * - "documented": the service's documented (Resilience4j) limiter: `perSecond` permits per
 *   refresh cycle of `windowMs`, cycles counted from the server's start; a request over the
 *   limit reserves a permit of a later cycle and waits for it if that is at most `WAIT_MS`
 *   away, else waits `WAIT_MS` and is answered 429.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { machineMs } from "./stamps.js";

export interface Arrival {
  /** The machine's monotonic clock in ms (machineMs), comparable across processes. */
  at: number;
  /** sha256 of the Authorization header: arrivals are counted per token without keeping it. */
  key: string;
  method: string;
  /** Path with query string. */
  url: string;
  /** 1-based count of arrivals so far with this method and path (query excluded). */
  n: number;
  status?: number;
  reset?: boolean;
}

export type Fault =
  { status: number; retryAfter?: string; body?: string } | { reset: true } | { delayMs: number };

export interface Reply {
  status?: number;
  json?: unknown;
}

/** Late-stamping fixture: how long each arrival holds the stamping lock. */
export const STAMP_MS = 1.5;
/** Documented fixture: how long an over-limit request may wait for a permit. */
export const WAIT_MS = 500;

export type ServerLimiter = "strict" | "late-stamping" | "documented";

export interface StrictServerOptions {
  /** How the server limits; default "strict". */
  limiter?: ServerLimiter;
  perSecond?: number;
  windowMs?: number;
  /** Decides a fault for an arrival, or none. Faulted arrivals count toward the limit too. */
  fault?: (arrival: Arrival) => Fault | undefined;
  /** The answer when the request passes; default echoes method, path and n. */
  reply?: (arrival: Arrival, request: IncomingMessage, body: string) => Reply;
  /** Ms each request takes to arrive after it reached us, before it is counted; default 0. */
  forwardDelayMs?: () => number;
  /** Ms each answer (429 included) takes to leave after its request was counted; default 0. */
  backwardDelayMs?: () => number;
}

export interface StrictServer {
  url: string;
  arrivals: Arrival[];
  /** Most arrivals of one key in any sliding window of the server's, among those `filter` keeps. */
  maxInWindow(filter?: (arrival: Arrival) => boolean): number;
  count(filter: (arrival: Arrival) => boolean): number;
  close(): Promise<void>;
}

export const RATE_MESSAGE = (seconds: number) =>
  `Maximum request rate exceeded. Wait ${seconds}secs before issuing a new request`;

export async function startStrictServer(options: StrictServerOptions = {}): Promise<StrictServer> {
  const perSecond = options.perSecond ?? 20;
  const windowMs = options.windowMs ?? 1000;
  const arrivals: Arrival[] = [];
  const perRoute = new Map<string, number>();
  const recent = new Map<string, number[]>();

  const forward = options.forwardDelayMs;
  const backward = options.backwardDelayMs;
  const limiter = options.limiter ?? "strict";
  let lockFreeAt = 0;
  const server = createServer((request, response) => {
    const delay = forward?.() ?? 0;
    if (delay > 0) setTimeout(() => stamp(request, response), delay);
    else stamp(request, response);
  });
  const stamp = (request: IncomingMessage, response: ServerResponse) => {
    if (limiter !== "late-stamping") return arrive(request, response);
    const now = performance.now();
    lockFreeAt = Math.max(now, lockFreeAt) + STAMP_MS;
    setTimeout(() => arrive(request, response), lockFreeAt - now);
  };
  const cycles = limiter === "documented" ? refreshCycles(perSecond, windowMs) : undefined;

  const arrive = (request: IncomingMessage, response: ServerResponse) => {
    const at = machineMs();
    const key = authorizationKey(request.headers.authorization ?? "");
    const route = `${request.method} ${(request.url ?? "").split("?")[0]}`;
    const n = (perRoute.get(route) ?? 0) + 1;
    perRoute.set(route, n);
    const arrival: Arrival = { at, key, method: request.method ?? "", url: request.url ?? "", n };
    arrivals.push(arrival);

    const send = (status: number, body: string, headers: Record<string, string>) => {
      arrival.status = status;
      const delay = backward?.() ?? 0;
      if (delay > 0) setTimeout(() => answer(response, status, body, headers), delay);
      else answer(response, status, body, headers);
    };
    const reject = (seconds: number) =>
      send(429, JSON.stringify({ message: RATE_MESSAGE(seconds) }), {
        "retry-after": String(seconds),
      });
    if (cycles) {
      const waitMs = cycles(key, at);
      if (waitMs === undefined) return void setTimeout(() => reject(0), WAIT_MS);
      if (waitMs > 0) return void setTimeout(() => pass(request, response, arrival, send), waitMs);
      return pass(request, response, arrival, send);
    }
    const times = (recent.get(key) ?? []).filter((t) => t > at - windowMs);
    times.push(at);
    recent.set(key, times);
    if (times.length > perSecond) {
      return reject(Math.max(0, Math.ceil((times[0]! + windowMs - at) / 1000)));
    }
    pass(request, response, arrival, send);
  };

  /** The request is within the limit: faults, then the answer. */
  const pass = (
    request: IncomingMessage,
    response: ServerResponse,
    arrival: Arrival,
    send: (status: number, body: string, headers: Record<string, string>) => void,
  ) => {
    const fault = options.fault?.(arrival);
    if (fault && "reset" in fault) {
      arrival.reset = true;
      request.socket.destroy();
      return;
    }
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      const reply = () => {
        if (fault && "status" in fault) {
          const headers: Record<string, string> =
            fault.retryAfter === undefined ? {} : { "retry-after": fault.retryAfter };
          return send(fault.status, fault.body ?? "", headers);
        }
        const { status, json } = options.reply?.(arrival, request, body) ?? {
          json: { method: arrival.method, url: arrival.url, n: arrival.n, body },
        };
        send(status ?? 200, JSON.stringify(json ?? {}), {});
      };
      if (fault && "delayMs" in fault) setTimeout(reply, fault.delayMs);
      else reply();
    });
  };

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    arrivals,
    maxInWindow: (filter = () => true) => maxInWindow(arrivals.filter(filter), windowMs),
    count: (filter) => arrivals.filter(filter).length,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function answer(
  response: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string>,
): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(body);
}

/** The `key` of arrivals with this Authorization header. */
export const authorizationKey = (authorization: string) =>
  createHash("sha256").update(authorization).digest("hex").slice(0, 16);

/** The `key` of a bearer token's arrivals. */
export const tokenKey = (token: string) => authorizationKey(`Bearer ${token}`);

/** Largest number of one key's arrivals within any window [t, t + windowMs). */
export function maxInWindow(arrivals: readonly Arrival[], windowMs: number): number {
  const byKey = new Map<string, number[]>();
  for (const a of arrivals) {
    const times = byKey.get(a.key) ?? [];
    times.push(a.at);
    byKey.set(a.key, times);
  }
  let max = 0;
  for (const times of byKey.values()) {
    times.sort((x, y) => x - y);
    for (let start = 0, end = 0; end < times.length; end++) {
      while (times[end]! - times[start]! >= windowMs) start++;
      max = Math.max(max, end - start + 1);
    }
  }
  return max;
}

/**
 * The documented limiter's permits per key, as Resilience4j's AtomicRateLimiter keeps them:
 * each cycle of `cycleMs` refills to `perCycle` (unused permits do not pile up), and a request
 * without one reserves a permit of a later cycle (the count goes below 0). Returns how long the
 * request at `at` waits for its permit, or undefined when that is over WAIT_MS (no permit
 * reserved; the request waits WAIT_MS and gets its 429).
 */
function refreshCycles(perCycle: number, cycleMs: number) {
  const start = machineMs();
  const state = new Map<string, { cycle: number; permits: number }>();
  return (key: string, at: number): number | undefined => {
    const cycle = Math.floor((at - start) / cycleMs);
    const last = state.get(key) ?? { cycle, permits: perCycle };
    const permits = Math.min(perCycle, last.permits + (cycle - last.cycle) * perCycle);
    let waitMs = 0;
    if (permits < 1) {
      const cyclesAhead = Math.ceil((1 - permits) / perCycle);
      waitMs = start + (cycle + cyclesAhead) * cycleMs - at;
      if (waitMs > WAIT_MS) {
        state.set(key, { cycle, permits });
        return undefined;
      }
    }
    state.set(key, { cycle, permits: permits - 1 });
    return waitMs;
  };
}
