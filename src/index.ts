/**
 * The package's public surface, decided name by name (api/seqera-api-client.api.md is its
 * report, checked by the tests): the client, its errors, the automation helpers and the types a
 * user writes down. Option types a literal fills in are not exported; they reach users through
 * the functions' signatures.
 */
export { createSeqeraClient } from "./client/client.js";
export type { SeqeraClient } from "./client/types.js";
export type { SeqeraClientOptions } from "./config/config.js";
export type { Logger } from "./http/log.js";
export { checkCompatibility } from "./client/compat.js";
export { hasOperation, requireOperation } from "./openapi/require-operation.js";
export { SCHEMA_VERSION } from "../generated/version.js";
export type { components, paths } from "../generated/schema.js";

// What the service answered (SeqeraApiError and its subclasses), and what the package refused.
export {
  AmbiguousNameError,
  BadRequestError,
  BodyReadError,
  ComputeEnvFailedError,
  ConfigurationError,
  ConflictError,
  ConnectionError,
  ForbiddenError,
  NameNotFoundError,
  NextflowVersionError,
  NotFoundError,
  RateLimitError,
  RateLimiterUnavailableError,
  RedirectError,
  ResponseTooLargeError,
  ResponseValidationError,
  ResumeUnavailableError,
  RunFailedError,
  SeqeraApiError,
  SeqeraError,
  ServerError,
  TimeoutError,
  UnexpectedAnswerError,
  UnsupportedOperationError,
  WaitTimeoutError,
} from "./errors/index.js";

// The automation helpers: free functions over a client, in the client's workspace.
export {
  cancelRun,
  launchPipeline,
  relaunchRun,
  toLaunchRequest,
  type LaunchResult,
  type LaunchSettings,
} from "./automation/launch.js";
export { failedTasks, waitForRun } from "./automation/runs.js";
export { listRuns } from "./automation/list-runs.js";
export { watchRuns } from "./automation/watch-runs.js";
export { waitForComputeEnv } from "./automation/compute-env-wait.js";
export { find, listWorkspaces } from "./automation/names.js";
export { addMembers, setWorkspaceRole } from "./automation/members.js";
export { downloadRunLog, followRunLog, saveRunLogs, taskLog } from "./automation/logs.js";
export { uploadDataset } from "./automation/datasets.js";
export { copyPipeline } from "./automation/copy.js";
export { pipelineVersions, updatePipeline } from "./automation/pipeline-versions.js";
export { runSummaries } from "./automation/reports.js";
export { updateCredentials } from "./automation/credentials.js";
export {
  toComputeEnvRequest,
  toCredentialsRequest,
  toLabelRequest,
  toPipelineRequest,
} from "./automation/convert.js";
export type { Run, RunStatus, Task } from "./schema/types.js";
// Workspaces as code: seqerakit's files, planned against the service, then applied.
export { planResources } from "./automation/declare/plan.js";
export { applyPlan } from "./automation/declare/apply.js";
export { exportResources } from "./automation/declare/export.js";
