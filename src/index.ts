export { createSeqeraClient, type SeqeraClient } from "./client.js";
export {
  DEFAULT_ACCEPT_VERSION,
  DEFAULT_BASE_URL,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
  type FetchFunction,
  type SeqeraClientOptions,
  type SeqeraConfig,
  type ValidateResponses,
} from "./config.js";
export { checkCompatibility, compareVersions, type CompatibilityReport } from "./compat.js";
export {
  BadRequestError,
  BodyReadError,
  ConfigurationError,
  ConflictError,
  ConnectionError,
  ForbiddenError,
  NotFoundError,
  RateLimitError,
  RateLimiterUnavailableError,
  RedirectError,
  ResponseTooLargeError,
  ResponseValidationError,
  SeqeraApiError,
  ServerError,
  TimeoutError,
  type CallInfo,
} from "./errors/index.js";
export type { Page, Paginated, PaginateOptions } from "./paginate.js";
export type { ParseAs } from "./parse.js";
export type { RateLimitOptions } from "./rate-limit.js";
export type { RetryOptions } from "./retry.js";
export type { LogEntry, Logger } from "./log.js";
export type { ResponseIssue } from "./response-validation.js";
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
} from "./types.js";
export { SCHEMA_SHA256, SCHEMA_VERSION } from "../generated/version.js";
export type { components, operations, paths } from "../generated/schema.js";

// Automation helpers: runs, names, launch, logs and datasets, over the typed calls.
export * from "./automation/index.js";
export {
  AmbiguousNameError,
  ComputeEnvFailedError,
  NameNotFoundError,
  ResumeUnavailableError,
  RunFailedError,
  WaitTimeoutError,
} from "./errors/index.js";
