import { SeqeraApiError, type SeqeraApiErrorDetails } from "./seqera-api-error.js";

/** A success body grew past `maxResponseBytes` while it was read; reading stopped there. */
export class ResponseTooLargeError extends SeqeraApiError {
  /** The cap that was exceeded, in bytes (after decompression). */
  readonly maxResponseBytes: number;

  constructor(message: string, details: SeqeraApiErrorDetails & { maxResponseBytes: number }) {
    super(message, details);
    this.maxResponseBytes = details.maxResponseBytes;
  }
}
ResponseTooLargeError.prototype.name = "ResponseTooLargeError";
