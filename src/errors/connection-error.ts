import { SeqeraApiError, type SeqeraApiErrorDetails } from "./seqera-api-error.js";

/** No response arrived: DNS, refused or reset connection, TLS failure. `cause` has the original. */
export class ConnectionError extends SeqeraApiError {
  /** The system's error code when there is one, e.g. "ECONNREFUSED", "ECONNRESET", "UND_ERR_SOCKET". */
  readonly code: string | undefined;

  constructor(message: string, details: SeqeraApiErrorDetails & { code?: string }) {
    super(message, details);
    this.code = details.code;
  }
}
ConnectionError.prototype.name = "ConnectionError";
