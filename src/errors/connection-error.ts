import { SeqeraApiError } from "./seqera-api-error.js";

/** No response arrived: DNS, refused or reset connection, TLS failure. `cause` has the original. */
export class ConnectionError extends SeqeraApiError {}
ConnectionError.prototype.name = "ConnectionError";
