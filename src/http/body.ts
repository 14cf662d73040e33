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
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return concat(chunks, size);
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
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
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < maxBytes) {
      const { done, value } = await reader.read();
      if (done) return decode(concat(chunks, size));
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    return decode(concat(chunks, size));
  }
  await reader.cancel().catch(() => {});
  return decode(concat(chunks, size).subarray(0, maxBytes));
}

/** UTF-8, as Response.text() decodes (a leading BOM dropped, bad bytes replaced). */
export function decode(bytes: Uint8Array): string {
  return utf8.decode(bytes);
}
const utf8 = new TextDecoder();

/** Over an ArrayBuffer, as Blob and ArrayBuffer users need (fetch's chunks always are). */
export type Bytes = Uint8Array<ArrayBuffer>;

function concat(chunks: Uint8Array[], size: number): Bytes {
  if (chunks.length === 1) return chunks[0] as Bytes;
  const all = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return all;
}
