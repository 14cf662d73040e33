import { afterAll, beforeEach } from "vitest";
import {
  createServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";

/** A request as the server received it. */
export interface RecordedRequest {
  method: string;
  /** Path and query exactly as sent, e.g. "/api/workflow?attributes=a,b". */
  url: string;
  pathname: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** What the server answers; a plain object or array body is sent as JSON. */
export interface ScriptedResponse {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer | object;
  /** Wait this long before answering (bounded by close(), which drops the connection). */
  delayMs?: number;
  /** Send the headers, then stall this long before the body. */
  bodyDelayMs?: number;
  /** Drop the connection without answering. */
  destroy?: boolean;
}

export type Handler = (request: RecordedRequest) => ScriptedResponse | Promise<ScriptedResponse>;

export interface TestServer {
  /** http://127.0.0.1:<port> */
  url: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Queue responses, answered in order before the handler is consulted. */
  reply(...responses: ScriptedResponse[]): void;
  /** Answer requests with no queued response (default: 200 `{}`). */
  handle(handler: Handler): void;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 that records requests and answers with scripted responses. */
export async function startServer(handler?: Handler): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const queue: ScriptedResponse[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let fallback: Handler = handler ?? (() => ({ body: {} }));
  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = req.url ?? "/";
      const parsed = new URL(url, "http://127.0.0.1");
      const recorded: RecordedRequest = {
        method: req.method ?? "GET",
        url,
        pathname: parsed.pathname,
        query: parsed.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(recorded);
      void Promise.resolve(queue.shift() ?? fallback(recorded))
        .then((scripted) => answer(res, scripted, wait))
        .catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reply: (...responses) => queue.push(...responses),
    handle: (next) => {
      fallback = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function answer(
  res: ServerResponse,
  scripted: ScriptedResponse,
  wait: (ms: number) => Promise<void>,
) {
  if (scripted.delayMs) await wait(scripted.delayMs);
  if (scripted.destroy) {
    res.destroy();
    return;
  }
  const headers = { ...scripted.headers };
  let body: string | Buffer | undefined;
  if (typeof scripted.body === "string" || Buffer.isBuffer(scripted.body)) {
    body = scripted.body;
  } else if (scripted.body !== undefined) {
    body = JSON.stringify(scripted.body);
    headers["content-type"] ??= "application/json";
  }
  if (res.destroyed) return;
  res.writeHead(scripted.status ?? 200, headers);
  if (scripted.bodyDelayMs) {
    res.flushHeaders();
    await wait(scripted.bodyDelayMs);
    if (res.destroyed) return;
  }
  res.end(body);
}

/**
 * One recording server for a test file (top-level await): closed after the file, its request
 * log emptied before each test.
 */
export async function useTestServer(handler?: Handler): Promise<TestServer> {
  const server = await startServer(handler);
  afterAll(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
  });
  return server;
}
