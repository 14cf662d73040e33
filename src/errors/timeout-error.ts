import { SeqeraApiError, type SeqeraApiErrorDetails } from "./seqera-api-error.js";

/**
 * An attempt took longer than its timeout (headers and body together). `status` is set when the
 * status arrived and the body then stalled.
 */
export class TimeoutError extends SeqeraApiError {
  readonly timeoutMs: number;

  constructor(message: string, details: SeqeraApiErrorDetails & { timeoutMs: number }) {
    super(message, details);
    this.timeoutMs = details.timeoutMs;
  }
}
TimeoutError.prototype.name = "TimeoutError";
