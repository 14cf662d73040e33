import { ConnectionError } from "./connection-error.js";

/**
 * The status and headers arrived, then the body broke off (connection reset, a body shorter
 * than its Content-Length). `status` is the status that arrived. Retried like a connection error.
 */
export class BodyReadError extends ConnectionError {}
BodyReadError.prototype.name = "BodyReadError";
