import { once } from "node:events";
import type { Writable } from "node:stream";

/** Where a command writes: stdout for results, stderr for diagnostics; injectable for tests. */
export interface Streams {
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
}

/** Writes respecting backpressure, so a slow pipe does not buffer a whole listing in memory. */
export async function write(stream: Writable, chunk: string | Uint8Array): Promise<void> {
  if (!stream.write(chunk)) await once(stream, "drain");
}

/**
 * A response body as the operation returned it: JSON pretty-printed for a terminal and compact
 * for a pipe, text and bytes as they are, nothing for an empty answer.
 */
export async function writeBody(stream: Streams["stdout"], data: unknown): Promise<void> {
  if (data === undefined || data === null) return;
  if (typeof data === "string") return write(stream, data);
  if (data instanceof Blob) return write(stream, new Uint8Array(await data.arrayBuffer()));
  const json = stream.isTTY ? JSON.stringify(data, null, 2) : JSON.stringify(data);
  return write(stream, `${json}\n`);
}

/** One item of a listing as one NDJSON line. */
export function writeLine(stream: Writable, item: unknown): Promise<void> {
  return write(stream, `${JSON.stringify(item)}\n`);
}
