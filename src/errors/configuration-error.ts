import { SeqeraError } from "./seqera-error.js";

export interface ConfigurationErrorDetails {
  /** The option at fault, as the library names it ("baseUrl", "retry.maxAttempts"). */
  option?: string;
  /** Where its value came from: the environment variable's name, or "option" when it was passed. */
  source?: string;
  cause?: unknown;
}

/**
 * A bad option (client, rate limit, retry, per call, pagination), environment variable or path
 * parameter, raised before any request is sent. The message names the option and the value
 * (never the token's); `option` and `source` say the same as data, for a front end to tell it
 * in its own terms (errors/settings.ts).
 */
export class ConfigurationError extends SeqeraError {
  readonly option: string | undefined;
  readonly source: string | undefined;

  constructor(message: string, details: ConfigurationErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.option = details.option;
    this.source = details.source;
  }
}
ConfigurationError.prototype.name = "ConfigurationError";
