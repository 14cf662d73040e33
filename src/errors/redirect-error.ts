import { SeqeraApiError, type SeqeraApiErrorDetails } from "./seqera-api-error.js";

/**
 * A redirect the client refused to follow: a request with a body (or any method but GET and
 * HEAD) sent to another origin or turned into a GET, a scheme other than http(s), or too many
 * hops. Neither the token nor the body went to the redirect's target.
 */
export class RedirectError extends SeqeraApiError {
  /** Where the server redirected to: origin and path only (a query may hold signatures). */
  readonly location: string;

  constructor(message: string, details: SeqeraApiErrorDetails & { location: string }) {
    super(message, details);
    this.location = details.location;
  }
}
RedirectError.prototype.name = "RedirectError";
