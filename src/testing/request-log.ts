/**
 * The requests an emulator received, bounded by count and by the bytes of the bodies kept, so
 * that a long-lived emulator's memory stays bounded; never an uploaded file's content.
 */
import type { RecordedRequest } from "./types.js";

export class RequestLog {
  /** The requests kept, oldest first (the array `emulator.requests` is). */
  readonly requests: RecordedRequest[] = [];
  /** The body bytes of each request kept, and their sum. */
  readonly #weights = new WeakMap<RecordedRequest, number>();
  #bytes = 0;

  constructor(
    private readonly limit: number,
    private readonly maxBytes: number,
  ) {}

  /** Keeps the request, the oldest dropped beyond `limit`. */
  add(record: RecordedRequest): void {
    if (this.limit === 0) return;
    this.requests.push(record);
    if (this.requests.length > this.limit) this.#dropOldest();
  }

  /** Keeps `body` on `record`, dropping the oldest requests beyond `maxBytes`. */
  keepBody(record: RecordedRequest, body: unknown, bytes: number): void {
    record.body = recordedBody(body);
    // Not in the log (none is kept, or it was dropped while this request was read).
    if (this.requests.lastIndexOf(record) < 0) return;
    // An upload is kept by name and size only: its content does not weigh.
    const weight = record.body === body ? bytes : 0;
    this.#weights.set(record, weight);
    this.#bytes += weight;
    while (this.#bytes > this.maxBytes && this.requests[0] !== record) this.#dropOldest();
  }

  #dropOldest(): void {
    const dropped = this.requests.shift();
    if (dropped) this.#bytes -= this.#weights.get(dropped) ?? 0;
  }
}

/** A body as the log keeps it: uploaded files by name, type and size, not their content. */
function recordedBody(body: unknown): unknown {
  if (typeof body !== "object" || body === null) return body;
  if (!Object.values(body).some((v) => v instanceof Blob)) return body;
  return Object.fromEntries(
    Object.entries(body).map(([key, value]) =>
      value instanceof Blob
        ? [
            key,
            {
              fileName: value instanceof File ? value.name : "",
              type: value.type,
              size: value.size,
            },
          ]
        : [key, value],
    ),
  );
}
