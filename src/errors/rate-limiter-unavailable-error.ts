import { SeqeraApiError, type SeqeraApiErrorDetails } from "./seqera-api-error.js";

/**
 * The call was not sent because the rate limiter could not give it a slot: its Redis stayed
 * unreachable past `redisTimeoutMs` (`reason: "unreachable"`, `cause` has the last Redis error),
 * or the client was closed while the call waited (`reason: "closed"`). Nothing reached the
 * service, so the call is safe to make again.
 */
export class RateLimiterUnavailableError extends SeqeraApiError {
  readonly reason: "unreachable" | "closed";

  constructor(
    message: string,
    details: SeqeraApiErrorDetails & { reason: "unreachable" | "closed" },
  ) {
    super(message, details);
    this.reason = details.reason;
  }
}
RateLimiterUnavailableError.prototype.name = "RateLimiterUnavailableError";
