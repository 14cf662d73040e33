export { SeqeraApiError, type CallInfo, type SeqeraApiErrorDetails } from "./seqera-api-error.js";
export { BadRequestError } from "./bad-request-error.js";
export { ForbiddenError } from "./forbidden-error.js";
export { NotFoundError } from "./not-found-error.js";
export { ConflictError } from "./conflict-error.js";
export { RateLimitError } from "./rate-limit-error.js";
export { RateLimiterUnavailableError } from "./rate-limiter-unavailable-error.js";
export { ServerError } from "./server-error.js";
export { ConnectionError } from "./connection-error.js";
export { BodyReadError } from "./body-read-error.js";
export { TimeoutError } from "./timeout-error.js";
export { RedirectError } from "./redirect-error.js";
export { ResponseTooLargeError } from "./response-too-large-error.js";
export { ResponseValidationError } from "./response-validation-error.js";
export { ConfigurationError } from "./configuration-error.js";

export { NameNotFoundError } from "./name-not-found-error.js";
export { AmbiguousNameError } from "./ambiguous-name-error.js";
export { UnsupportedOperationError } from "./unsupported-operation-error.js";
