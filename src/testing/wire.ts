/** The emulator's HTTP plumbing: reading requests and writing the answers it refuses with. */
import type { IncomingMessage, ServerResponse } from "node:http";
import { writeAnswer } from "./answers.js";
import { rateLimitMessage } from "./rate-limit.js";
import type { EmulatorResponse } from "./types.js";

/** How long a refused request's remaining body is read and dropped before the connection ends. */
const DRAIN_MS = 10_000;

/** The service's 429: the whole seconds to wait, in `Retry-After` and in its message. */
export function tooManyRequests(retryAfterSeconds: number): EmulatorResponse {
  return {
    status: 429,
    headers: { "retry-after": String(retryAfterSeconds) },
    body: { message: rateLimitMessage(retryAfterSeconds) },
  };
}

/** The body, or undefined once it grows over `max` bytes (the rest is never read). */
export function readAll(req: IncomingMessage, max: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) return void chunks.push(chunk);
      req.off("data", onData);
      req.pause();
      resolve(undefined);
    };
    req.on("data", onData);
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** Whether a body may follow the headers (one announced, or chunked). */
export function hasBody(req: IncomingMessage): boolean {
  return (
    !req.complete &&
    (Number(req.headers["content-length"] ?? 0) > 0 ||
      req.headers["transfer-encoding"] !== undefined)
  );
}

/**
 * Answers a request whose body may still be coming, closing the connection after the answer
 * so that the body is never read.
 */
export function answerUnread(
  req: IncomingMessage,
  res: ServerResponse,
  refusal: EmulatorResponse,
): void {
  refusal.headers = { ...refusal.headers, connection: "close" };
  // The answer goes out now, but the response ends (and Node closes the connection) only
  // once the rest of the body is read and dropped: a connection closed with unread data is
  // reset, and a client that reads only after sending its whole body (Python's requests)
  // would lose the answer to EPIPE. A client still sending after DRAIN_MS is cut off.
  writeAnswer(res, refusal, false);
  const cutOff = setTimeout(() => {
    res.end();
    req.socket.destroy();
  }, DRAIN_MS);
  req.socket.once("close", () => clearTimeout(cutOff));
  req.once("end", () => {
    clearTimeout(cutOff);
    res.end();
  });
  req.resume();
}

export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function bearer(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  // A malformed header is as good as an unknown token.
  return match ? match[1]! : "";
}

export function headersWithoutAuth(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (name !== "authorization" && value !== undefined)
      out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}
