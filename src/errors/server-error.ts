import { SeqeraApiError } from "./seqera-api-error.js";

/** HTTP 5xx. */
export class ServerError extends SeqeraApiError {}
ServerError.prototype.name = "ServerError";
