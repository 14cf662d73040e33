/**
 * The "late-reading" server: a strict sliding-window limiter behind a fixed pool of workers, as
 * Gunicorn's sync workers, uWSGI, Puma, Tomcat and PHP-FPM run one. A connection is accepted at
 * once, but a request is read, and counted, only when a worker is free to take it, oldest
 * first. With 4 workers answering in 0–150 ms (2.6× the limit's throughput: not flooded), a
 * burst of 20 is read over about 375 ms: queued requests are counted 100–370 ms after they were
 * written, and each is answered within its worker's time after that.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  authorizationKey,
  maxInWindow,
  RATE_MESSAGE,
  type Arrival,
  type StrictServer,
} from "../helpers/strict-server.js";
import { machineMs } from "../helpers/stamps.js";

export interface LateReadingServerOptions {
  /** Requests read at once; default 4 (Infinity: every request read as it comes). */
  workers?: number;
  /** Ms a worker takes to answer a request it read (429s included); default uniform 0–150. */
  workMs?: () => number;
  perSecond?: number;
  /** The answer to a request within the limit; default 200 with `{}`. */
  answer?: (arrival: Arrival) => { status: number; headers?: Record<string, string> };
}

export async function startLateReadingServer(
  options: LateReadingServerOptions = {},
): Promise<StrictServer> {
  const perSecond = options.perSecond ?? 20;
  const workMs = options.workMs ?? (() => Math.random() * 150);
  const arrivals: Arrival[] = [];
  const recent = new Map<string, number[]>();
  const perRoute = new Map<string, number>();
  const queue: [IncomingMessage, ServerResponse][] = [];
  let idle = options.workers ?? 4;

  const read = (request: IncomingMessage, response: ServerResponse) => {
    const at = machineMs();
    const key = authorizationKey(request.headers.authorization ?? "");
    const method = request.method ?? "";
    const url = request.url ?? "";
    const route = `${method} ${url.split("?")[0]}`;
    const n = (perRoute.get(route) ?? 0) + 1;
    perRoute.set(route, n);
    const arrival: Arrival = { at, key, method, url, n };
    arrivals.push(arrival);
    const times = (recent.get(key) ?? []).filter((t) => t > at - 1000);
    times.push(at);
    recent.set(key, times);
    const over = times.length > perSecond;
    const { status, headers = {} } = over
      ? { status: 429, headers: { "retry-after": "1" } }
      : (options.answer?.(arrival) ?? { status: 200 });
    arrival.status = status;
    setTimeout(() => {
      response.writeHead(status, { "content-type": "application/json", ...headers });
      response.end(JSON.stringify(over ? { message: RATE_MESSAGE(1) } : {}));
      idle++;
      next();
    }, workMs());
  };
  const next = () => {
    for (; idle > 0 && queue.length > 0; idle--) read(...queue.shift()!);
  };
  const server = createServer((request, response) => {
    queue.push([request, response]);
    next();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    arrivals,
    maxInWindow: (filter = () => true) => maxInWindow(arrivals.filter(filter), 1000),
    count: (filter) => arrivals.filter(filter).length,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
