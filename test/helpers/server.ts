/**
 * The loopback HTTP server of the client tests: a real server on 127.0.0.1 that records every
 * request and answers with scripted responses, well-behaved or hostile (a body that breaks off,
 * stalls, lies about its length, inflates to gigabytes, or never ends).
 */
import { afterAll, beforeEach } from "vitest";
import {
  createServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";

/** A request as the server received it. */
export interface RecordedRequest {
  method: string;
  /** Path and query exactly as sent, e.g. "/api/workflow?attributes=a,b". */
  url: string;
  pathname: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** performance.now() when the request had arrived in full. */
  at: number;
  /** The client's port: the same for calls on one connection. */
  remotePort: number | undefined;
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
  /** Answer by hand, for the hostile cases below; the other fields are then ignored. */
  write?: (res: ServerResponse) => void | Promise<void>;
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
  /** Forget the requests received and the responses still queued. */
  reset(): void;
  close(): Promise<void>;
}

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
    // A client that hangs up mid-answer is a case under test, not a server failure.
    res.on("error", () => {});
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
        at: performance.now(),
        remotePort: req.socket.remotePort,
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
    reset: () => {
      requests.length = 0;
      queue.length = 0;
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
  if (res.destroyed) return;
  if (scripted.write) {
    await scripted.write(res);
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
 * log and queue emptied before each test.
 */
export async function useTestServer(handler?: Handler): Promise<TestServer> {
  const server = await startServer(handler);
  afterAll(() => server.close());
  beforeEach(() => server.reset());
  return server;
}

// Hostile answers.

const JSON_TYPE = { "content-type": "application/json" };

/** Status and part of the body, then a TCP reset. */
export const resetMidBody = (status = 200): ScriptedResponse => ({
  write: (res) => {
    res.writeHead(status, { ...JSON_TYPE, "content-length": "1000" });
    res.write('{"workflow": {"id": "w1", "status"', () => res.socket?.resetAndDestroy());
  },
});

/** A Content-Length longer than the body, then the connection closed cleanly. */
export const shortBody = (): ScriptedResponse => ({
  write: (res) => {
    res.writeHead(200, { ...JSON_TYPE, "content-length": "5000" });
    res.write('{"ok": tr', () => res.socket?.end());
  },
});

/**
 * gzip members of `memberBytes` zeros each, `members` of them: gunzip reads concatenated
 * members as one stream, so 1 MiB on the wire can be made to inflate to 1 GiB cheaply.
 */
export function gzipBomb(members: number, memberBytes: number): Buffer {
  const member = gzipSync(Buffer.alloc(memberBytes), { level: 9 });
  return Buffer.concat(Array<Buffer>(members).fill(member));
}

/**
 * `totalBytes` of `fill` streamed with backpressure, stopping early when the client hangs up;
 * `onEnd` learns how much was written.
 */
export const endlessBody = (
  status: number,
  totalBytes: number,
  fill: string,
  onEnd?: (written: number) => void,
): ScriptedResponse => ({
  write: async (res) => {
    res.writeHead(status, { "content-type": "text/plain" });
    const chunk = Buffer.alloc(64 * 1024, fill);
    let written = 0;
    while (written < totalBytes && !res.destroyed) {
      written += chunk.length;
      if (!res.write(chunk)) {
        // Whichever comes first removes both listeners: one left per wait would pile up on
        // `res` (a MaxListenersExceededWarning after ten waits).
        await new Promise<void>((resolve) => {
          const done = () => {
            res.off("drain", done);
            res.off("close", done);
            resolve();
          };
          res.once("drain", done);
          res.once("close", done);
        });
      }
    }
    if (!res.destroyed) res.end();
    onEnd?.(written);
  },
});
