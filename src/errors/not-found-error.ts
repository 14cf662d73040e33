import { SeqeraApiError } from "./seqera-api-error.js";

/** HTTP 404. */
export class NotFoundError extends SeqeraApiError {}
NotFoundError.prototype.name = "NotFoundError";
