import { SeqeraApiError } from "./seqera-api-error.js";

/** HTTP 409: the resource already exists or changed meanwhile. */
export class ConflictError extends SeqeraApiError {}
ConflictError.prototype.name = "ConflictError";
