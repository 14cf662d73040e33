/**
 * Reading response bodies with a bound on memory. Bytes are counted as they come out of the
 * stream, i.e. after decompression, so a small gzip body that inflates to gigabytes stops at the
 * bound; what is past it is never read (the stream is cancelled, which closes the connection).
 */

/** The whole body, or undefined when it exceeds `maxBytes` (reading stopped there). */
export async function readAtMost(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<Bytes | undefined> {
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const bytes = new ByteBuffer();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return bytes.contents();
    if (bytes.size + value.byteLength > maxBytes) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    bytes.append(value);
  }
}

/**
 * The first `maxBytes` of a body, as text, for error reports: the rest is not read, and a body
 * that breaks off keeps what arrived (the status is what matters).
 */
export async function readPrefix(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<string> {
  if (body === null) return "";
  const reader = body.getReader();
  const bytes = new ByteBuffer();
  try {
    while (bytes.size < maxBytes) {
      const { done, value } = await reader.read();
      if (done) return decode(bytes.contents());
      bytes.append(value);
    }
  } catch {
    return decode(bytes.contents());
  }
  await reader.cancel().catch(() => {});
  return decode(bytes.contents().subarray(0, maxBytes));
}

/** UTF-8, as Response.text() decodes (a leading BOM dropped, bad bytes replaced). */
export function decode(bytes: Uint8Array): string {
  return utf8.decode(bytes);
}
const utf8 = new TextDecoder();

/** Over an ArrayBuffer, as Blob and ArrayBuffer users need (fetch's chunks always are). */
export type Bytes = Uint8Array<ArrayBuffer>;

/**
 * Chunks copied into one buffer that doubles as it fills: a body arriving a byte per chunk
 * (a slow link, a proxy) kept as a list of chunks cost some 250 bytes of objects per byte
 * (503 MB for 2 MB of JSON); here it costs at most twice its size.
 */
class ByteBuffer {
  #buffer = new Uint8Array(0);
  size = 0;

  append(chunk: Uint8Array): void {
    const needed = this.size + chunk.byteLength;
    if (needed > this.#buffer.byteLength) {
      const grown = new Uint8Array(Math.max(needed, this.#buffer.byteLength * 2, 4096));
      grown.set(this.#buffer.subarray(0, this.size));
      this.#buffer = grown;
    }
    this.#buffer.set(chunk, this.size);
    this.size = needed;
  }

  /** The bytes appended, over an ArrayBuffer of exactly their size. */
  contents(): Bytes {
    return this.#buffer.slice(0, this.size);
  }
}
