/**
 * The client's default transport: a fetch over node:http and node:https.
 *
 * Why not Node's own fetch: its first call costs a process about 0.12 s of CPU on Node 20
 * (undici's JavaScript, and its WebAssembly HTTP parser compiled), against 0.01 s for
 * node:http, whose parser is built in. A `seqera-api launch` is five calls: that start-up was
 * half its CPU (bench: test/bench/startup-cpu.ts).
 *
 * It behaves as fetch does for what the client sends: it never follows redirects (the client
 * does, redirects.ts), sends fetch's default headers when the request has none of its own
 * (accept, user-agent, accept-encoding) and decompresses gzip, deflate and br bodies as they are
 * read; a failure before the answer rejects with fetch's `TypeError("fetch failed")` and a body
 * that breaks off errors with `TypeError("terminated")`, each with the system's error as `cause`;
 * an abort rejects, or errors the body, with the signal's reason. A connection silent for
 * IDLE_MS ends as undici's headers and body timeouts end it.
 *
 * fetch is used instead when `globalThis.fetch` is not the one this module found at import
 * (a test's mock, a fetch with hooks of its own: the client looks it up per call), outside Node,
 * and for multipart bodies (dataset uploads), whose length fetch computes from their parts
 * where this transport would have to hold them whole or send them chunked.
 */
import type { IncomingMessage } from "node:http";
import type { Readable } from "node:stream";
import { onAbort, offAbort } from "../core/abort.js";
import { requireBuiltin } from "../core/builtin.js";
import { REQUEST_CREATED, REQUEST_SENT } from "../core/request-events.js";
import type { FetchFunction } from "./request.js";

/** A connection with no bytes either way for this long fails, as undici's timeouts do. */
const IDLE_MS = 300_000;
/** The body chunks read ahead of the reader, in bytes. */
const READ_AHEAD_BYTES = 64 * 1024;
/** Statuses whose responses have no body (fetch's null body statuses). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
/** What Node's fetch sends when the request does not say. */
const FETCH_DEFAULTS: [string, string][] = [
  ["accept", "*/*"],
  ["user-agent", "node"],
  ["accept-encoding", "gzip, deflate"],
];

const nodesFetch = globalThis.fetch;
const onNode =
  typeof process === "object" &&
  typeof process.versions?.node === "string" &&
  !("Bun" in globalThis) &&
  !("Deno" in globalThis);

/**
 * `globalThis.fetch`, looked up per call, or this transport in its place while that is Node's
 * own (see above).
 */
export const defaultFetch: FetchFunction = (request, init) => {
  const fetch = globalThis.fetch;
  if (
    fetch !== nodesFetch ||
    !onNode ||
    /^multipart\//i.test(request.headers.get("content-type") ?? "")
  ) {
    return fetch(request, init);
  }
  return send(request, init?.signal ?? request.signal);
};

type Events = typeof import("node:diagnostics_channel");
let events: ReturnType<typeof channels> | undefined;
type Opener = { open: typeof import("node:http").request; agent: import("node:http").Agent };
const openers: Partial<Record<"http:" | "https:", Opener>> = {};

/** `request` of node:http or node:https, and its agent, made at the protocol's first request. */
function openerFor(protocol: "http:" | "https:"): Opener {
  const made = openers[protocol];
  if (made) return made;
  const module = requireBuiltin(protocol === "https:" ? "node:https" : "node:http") as
    typeof import("node:http") | typeof import("node:https");
  // Keep-alive, as Node's global agent; idle sockets are unref'ed: they never keep the process alive.
  const agent = new module.Agent({ keepAlive: true, scheduling: "lifo", timeout: 5000 });
  return (openers[protocol] = { open: module.request, agent });
}

async function send(request: Request, signal: AbortSignal | null | undefined): Promise<Response> {
  signal?.throwIfAborted();
  const url = new URL(request.url);
  const protocol = url.protocol;
  if (protocol !== "http:" && protocol !== "https:") {
    throw new TypeError("fetch failed", { cause: new Error(`${protocol} is not http(s)`) });
  }
  const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
  signal?.throwIfAborted();
  const headers: Record<string, string> = Object.fromEntries(FETCH_DEFAULTS);
  for (const [name, value] of request.headers) headers[name] = value;
  if (body !== undefined) headers["content-length"] = String(body.byteLength);
  else if (request.method !== "GET" && request.method !== "HEAD") headers["content-length"] = "0";

  events ??= channels();
  const { open, agent } = openerFor(protocol);
  return new Promise<Response>((resolve, reject) => {
    const outgoing = open(url, { method: request.method, headers, agent });
    const message = { request: outgoing };
    if (events!.created.hasSubscribers) events!.created.publish(message);
    outgoing.once("finish", () => {
      if (events!.sent.hasSubscribers) events!.sent.publish(message);
    });
    outgoing.setTimeout(IDLE_MS, () => outgoing.destroy(idle()));
    // Until the answer, a failure rejects; after it, it errors the body (read(), below).
    let fail = (error: unknown) => {
      outgoing.destroy();
      reject(error);
    };
    const settled = () => {
      if (signal) offAbort(signal, abort);
    };
    const abort = () => fail(signal!.reason);
    if (signal) onAbort(signal, abort);
    outgoing.on("error", (error) => {
      settled();
      fail(new TypeError("fetch failed", { cause: error }));
    });
    outgoing.once("response", (incoming) => {
      const empty = NULL_BODY.has(incoming.statusCode!) || request.method === "HEAD";
      const reading = read(empty ? incoming : decoded(incoming), settled);
      let response: Response;
      try {
        response = new Response(empty ? null : reading.body, {
          status: incoming.statusCode,
          statusText: incoming.statusMessage,
          headers: pairs(incoming.rawHeaders),
        });
      } catch (error) {
        // A status or header fetch's Response cannot hold: no answer a fetch would give.
        settled();
        return fail(new TypeError("fetch failed", { cause: error }));
      }
      Object.defineProperty(response, "url", { value: request.url });
      fail = (error) => {
        reading.fail(error);
        outgoing.destroy();
      };
      resolve(response);
    });
    outgoing.end(body);
  });
}

/** The body as its encoding says, decompressed as it is read (as fetch does). */
function decoded(incoming: IncomingMessage): Readable {
  const encoding = incoming.headers["content-encoding"]?.trim().toLowerCase();
  if (encoding !== "gzip" && encoding !== "x-gzip" && encoding !== "deflate" && encoding !== "br") {
    return incoming;
  }
  const zlib = requireBuiltin("node:zlib") as typeof import("node:zlib");
  const { pipeline } = requireBuiltin("node:stream") as typeof import("node:stream");
  // Lenient as fetch is: what arrived is decoded as it comes, a stream cut at its end included.
  const { Z_SYNC_FLUSH, BROTLI_OPERATION_FLUSH } = zlib.constants;
  const zip = { flush: Z_SYNC_FLUSH, finishFlush: Z_SYNC_FLUSH };
  const inflate =
    encoding === "br"
      ? zlib.createBrotliDecompress({
          flush: BROTLI_OPERATION_FLUSH,
          finishFlush: BROTLI_OPERATION_FLUSH,
        })
      : encoding === "deflate"
        ? zlib.createInflate(zip)
        : zlib.createGunzip(zip);
  return pipeline(incoming, inflate, () => {});
}

/**
 * `source` as a web stream read ahead by READ_AHEAD_BYTES at most, and `fail`, which errors it
 * (an abort's reason). `settled` is called once it has ended, failed or been cancelled.
 */
function read(
  source: Readable,
  settled: () => void,
): { body: ReadableStream<Uint8Array>; fail(error: unknown): void } {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let open = true;
  const end = (error?: unknown) => {
    if (!open) return;
    open = false;
    settled();
    if (error === undefined) controller.close();
    else {
      controller.error(error);
      source.destroy();
    }
  };
  const body = new ReadableStream<Uint8Array>(
    {
      start(started) {
        controller = started;
        source.on("data", (chunk: Buffer) => {
          if (!open) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) source.pause();
        });
        source.once("end", () => end());
        source.once("error", (error) => end(new TypeError("terminated", { cause: error })));
        // A socket closed before the body was complete: Node says "aborted", and no error may follow.
        source.once("close", () => end(new TypeError("terminated", { cause: closedEarly() })));
      },
      pull() {
        source.resume();
      },
      cancel() {
        open = false;
        settled();
        source.destroy();
      },
    },
    { highWaterMark: READ_AHEAD_BYTES, size: (chunk) => chunk.byteLength },
  );
  return { body, fail: end };
}

/** Node's raw headers (name, value, name, value…) as pairs. */
function pairs(raw: string[]): [string, string][] {
  const result: [string, string][] = [];
  for (let at = 0; at < raw.length; at += 2) result.push([raw[at]!, raw[at + 1]!]);
  return result;
}

function channels() {
  const { channel } = requireBuiltin("node:diagnostics_channel") as Events;
  return { created: channel(REQUEST_CREATED), sent: channel(REQUEST_SENT) };
}

function idle(): Error {
  return Object.assign(new Error(`no bytes from the server for ${IDLE_MS / 1000} s`), {
    code: "ETIMEDOUT",
  });
}

function closedEarly(): Error {
  return Object.assign(new Error("the connection closed before the body was complete"), {
    code: "ECONNRESET",
  });
}
