import { SeqeraApiError, type SeqeraApiErrorDetails } from "./seqera-api-error.js";

/** HTTP 429: the per-token request rate was exceeded. */
export class RateLimitError extends SeqeraApiError {
  /** Seconds to wait before the next request (Retry-After; may be 0), when the server said. */
  readonly retryAfter: number | undefined;

  constructor(message: string, details: SeqeraApiErrorDetails & { retryAfter?: number }) {
    super(message, details);
    this.retryAfter = details.retryAfter;
  }
}
RateLimitError.prototype.name = "RateLimitError";
