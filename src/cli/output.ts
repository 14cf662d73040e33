import type { Writable } from "node:stream";
import { terminalSafe, terminalSafeJson } from "./terminal-text.js";
import { createRedactor, type Redact } from "../core/redact.js";

/** Where a command writes: stdout for results, stderr for diagnostics; injectable for tests. */
export interface Streams {
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
}

/**
 * Writes respecting backpressure, so a slow pipe does not buffer a whole listing in memory. A
 * stream whose reader has gone (see readerGone) takes nothing: the command goes on to its end
 * and its exit code.
 */
export async function write(stream: Writable, chunk: string | Uint8Array): Promise<void> {
  if (readerGone(stream) || stream.write(chunk)) return;
  // A reader leaving while the pipe is full closes the stream instead of draining it.
  await new Promise<void>((resolve) => {
    const done = () => {
      stream.off("drain", done).off("close", done);
      resolve();
    };
    stream.on("drain", done).on("close", done);
  });
}

/** Streams whose reader has gone: process.stdout and stderr stay open after an EPIPE. */
const gone = new WeakSet<Writable>();

/** Records that the stream's reader has gone (its EPIPE). */
export function markReaderGone(stream: Writable): void {
  gone.add(stream);
}

/** The stream's reader has gone (`| head` read enough): a listing or a follow can stop. */
export function readerGone(stream: Writable): boolean {
  return gone.has(stream) || stream.destroyed;
}

/**
 * Text the service sent (a log, a text file): as it is into a pipe or a file, with its
 * controls made inert on a terminal, where an escape sequence could write the clipboard or
 * retitle the window.
 */
export function writeText(stream: Streams["stdout"], text: string): Promise<void> {
  return write(stream, stream.isTTY ? terminalSafe(text) : text);
}

/**
 * A response body as the operation returned it: JSON pretty-printed for a terminal and compact
 * for a pipe, text and bytes as they are (inert on a terminal), nothing for an empty answer.
 */
export async function writeBody(stream: Streams["stdout"], data: unknown): Promise<void> {
  if (data === undefined || data === null) return;
  if (typeof data === "string") return writeText(stream, data);
  if (data instanceof Blob) {
    if (stream.isTTY) return writeText(stream, await data.text());
    return write(stream, new Uint8Array(await data.arrayBuffer()));
  }
  return write(stream, `${toJson(stream, data, stream.isTTY ? 2 : undefined)}\n`);
}

/** One item of a listing as one NDJSON line. */
export function writeLine(stream: Streams["stdout"], item: unknown): Promise<void> {
  return write(stream, `${toJson(stream, item)}\n`);
}

/**
 * JSON.stringify recurses: an answer nested thousands deep (no API answer is) overflows the
 * stack, and one past V8's string limit cannot be made. Either is a failure to say plainly.
 */
function toJson(stream: Streams["stdout"], data: unknown, space?: number): string {
  let json: string;
  try {
    json = JSON.stringify(data, null, space);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new Error(
      "The answer cannot be printed as JSON: it is nested too deeply or too large (no API answer is); nothing was printed.",
    );
  }
  return stream.isTTY ? terminalSafeJson(json) : json;
}

/**
 * One diagnostic line on stderr: without the token (an argument may have been the token itself,
 * `--url "$TOWER_ACCESS_TOKEN"`) and with any control the service sent made inert.
 */
export function reportLine(stderr: Writable, token: string | undefined, line: string): void {
  const secrets = [token?.trim() ?? "", ...hidden].filter((secret) => secret !== "");
  const redacted = secrets.reduce((text, secret) => redactorOf(secret)(text), line);
  stderr.write(`${terminalSafe(redacted)}\n`);
}

/** Values this command read as secrets: no diagnostic line of it shows them. */
const hidden = new Set<string>();
/** Each secret's redactor, made once: `--verbose` writes a line per attempt. */
const redactors = new Map<string, Redact>();

function redactorOf(secret: string): Redact {
  let redact = redactors.get(secret);
  if (!redact) redactors.set(secret, (redact = createRedactor(secret)));
  return redact;
}

/** Keeps a secret value the command read out of every line reportLine writes. */
export function hideInReports(secret: string): void {
  hidden.add(secret);
}
