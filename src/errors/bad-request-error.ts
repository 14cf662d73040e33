import { SeqeraApiError } from "./seqera-api-error.js";

/** HTTP 400: the server rejected the request; `message` is the server's, without the Error ID suffix (see `errorId`). */
export class BadRequestError extends SeqeraApiError {}
BadRequestError.prototype.name = "BadRequestError";
