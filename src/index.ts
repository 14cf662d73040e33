export { createSeqeraClient, type SeqeraClient } from "./client/client.js";
export {
  DEFAULT_ACCEPT_VERSION,
  DEFAULT_BASE_URL,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
  type FetchFunction,
  type SeqeraClientOptions,
  type SeqeraConfig,
  type ValidateResponses,
} from "./config/config.js";
export {
  checkCompatibility,
  compareVersions,
  packageLine,
  type CompatibilityReport,
} from "./client/compat.js";
export {
  BadRequestError,
  BodyReadError,
  ConfigurationError,
  ConflictError,
  ConnectionError,
  AmbiguousNameError,
  NameNotFoundError,
  ForbiddenError,
  NotFoundError,
  RateLimitError,
  RateLimiterUnavailableError,
  RedirectError,
  ResponseTooLargeError,
  ResponseValidationError,
  SeqeraApiError,
  SeqeraError,
  ServerError,
  TimeoutError,
  UnsupportedOperationError,
  type CallInfo,
} from "./errors/index.js";
export {
  hasOperation,
  requireOperation,
  type IfOperation,
  type OperationKey,
} from "./openapi/require-operation.js";
export type { Page, Paginated, PaginateOptions } from "./client/paginate.js";
export type { ParseAs } from "./http/read-response.js";
export type { RateLimitOptions } from "./limits/limiter.js";
export type { RetryOptions } from "./http/retry.js";
export type { LogEntry, Logger } from "./http/log.js";
export type { ResponseIssue } from "./http/validate-response.js";
export type {
  CallOptions,
  ItemOf,
  PaginatedPath,
  PaginateInit,
  Operation,
  OperationInit,
  RawMethods,
  ResponseData,
  TypedMethods,
  UntypedInit,
} from "./client/types.js";
export { SCHEMA_SHA256, SCHEMA_VERSION } from "../generated/version.js";
export type { components, operations, paths } from "../generated/schema.js";

// Automation helpers: runs, names, launch, logs and datasets, over the typed calls.
export * from "./automation/index.js";
