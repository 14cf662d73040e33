import { SeqeraError } from "./seqera-error.js";
/**
 * A bad option (client, rate limit, retry, per call, pagination), environment variable or path
 * parameter, raised before any request is sent. The message names the option and the value
 * (never the token's).
 */
export class ConfigurationError extends SeqeraError {}
ConfigurationError.prototype.name = "ConfigurationError";
