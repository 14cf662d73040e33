/** The automation helpers: free functions over a client, each importable on its own. */
export {
  DEFAULT_MAX_POLL_INTERVAL_MS,
  DEFAULT_POLL_INTERVAL_MS,
  type PollOptions,
  type WaitOptions,
} from "./poll.js";
export {
  TERMINAL_RUN_STATUSES,
  failedTasks,
  listRuns,
  waitForComputeEnv,
  waitForRun,
  type ListRunsOptions,
  type WaitForComputeEnvOptions,
  type WaitForRunOptions,
} from "./runs.js";
export {
  findAvailableComputeEnv,
  findComputeEnv,
  findCredentials,
  findDataset,
  findLabel,
  findPipeline,
  findSecret,
  findWorkspace,
  listWorkspaces,
  primaryComputeEnv,
  type FindOptions,
  type Finder,
  type WorkspaceInfo,
  type WorkspaceRef,
} from "./names.js";
export {
  cancelRun,
  launchPipeline,
  relaunchRun,
  toLaunchRequest,
  type LaunchPipelineOptions,
  type LaunchResult,
  type LaunchSettings,
  type PipelineVersionSettings,
  type RelaunchOptions,
} from "./launch.js";
export { copyPipeline, type CopiedPipeline, type CopyPipelineOptions } from "./copy.js";
export {
  toComputeEnvRequest,
  toCredentialsRequest,
  toLabelRequest,
  toPipelineRequest,
  type ComputeEnvFields,
  type CreateComputeEnvRequest,
  type CreateCredentialsRequest,
  type CreateLabelRequest,
  type CreatePipelineRequest,
  type CredentialsFields,
  type LabelFields,
  type PipelineFields,
} from "./convert.js";
export { mergeParamsText, parseParamsText, type Params } from "./params.js";
export {
  downloadRunLog,
  followRunLog,
  saveRunLogs,
  taskLog,
  type DownloadLogOptions,
  type FollowRunLogOptions,
  type LogOptions,
} from "./logs.js";
export {
  uploadDataset,
  type DatasetSource,
  type UploadDatasetOptions,
  type UploadedDataset,
} from "./datasets.js";
export type * from "./schema.js";
export { RunFailedError } from "./errors/run-failed-error.js";
export { WaitTimeoutError } from "./errors/wait-timeout-error.js";
export { UnexpectedAnswerError } from "./errors/unexpected-answer-error.js";
export { NextflowVersionError } from "./errors/nextflow-version-error.js";
export { ComputeEnvFailedError } from "./errors/compute-env-failed-error.js";
export { ResumeUnavailableError } from "./errors/resume-unavailable-error.js";
