import { SeqeraApiError } from "./seqera-api-error.js";

/**
 * HTTP 403. The service answers 403 both for an invalid or expired token and for a path it does
 * not serve (a typo, or an operation this server's release lacks), so the message names both.
 */
export class ForbiddenError extends SeqeraApiError {}
ForbiddenError.prototype.name = "ForbiddenError";
