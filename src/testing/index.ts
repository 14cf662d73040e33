/**
 * The `testing` entry point: a local emulator of the Seqera Platform API for tests of code
 * that uses this client. Kept apart from the main entry so that it never loads in production.
 */
export { startEmulator, Emulator, type EmulatorOptions } from "./emulator.js";
export type { Faults, FaultKind, FaultOptions } from "./faults.js";
export type { EmulatorRateLimit } from "./rate-limit.js";
export type {
  EmulatorRequest,
  EmulatorResponse,
  Handler,
  RecordedRequest,
  Schema,
} from "./types.js";
export { EmulatorState, type Seed } from "./state/state.js";
export type { Dated, Entity } from "./state/store.js";
export type { ScopedInit, WorkspaceRef } from "./state/scoped.js";
export type {
  Member,
  MemberInit,
  MemberStore,
  Organization,
  OrganizationInit,
  OrganizationStore,
  OrgRole,
  User,
  Visibility,
  Workspace,
  WorkspaceInit,
  WorkspaceStore,
} from "./state/organizations.js";
export type {
  Participant,
  ParticipantInit,
  ParticipantStore,
  Team,
  TeamInit,
  TeamStore,
  WorkspaceRole,
} from "./state/participants.js";
export type { LaunchConfig, Pipeline, PipelineInit, PipelineStore } from "./state/pipelines.js";
export type {
  ComputeEnv,
  ComputeEnvInit,
  ComputeEnvStatus,
  ComputeEnvStore,
} from "./state/compute-envs.js";
export type { Credentials, CredentialsInit, CredentialsStore } from "./state/credentials.js";
export type { Label, LabelInit, LabelStore } from "./state/labels.js";
export type { Secret, SecretInit, SecretStore } from "./state/secrets.js";
export type {
  Dataset,
  DatasetInit,
  DatasetStore,
  DatasetUpload,
  DatasetVersion,
} from "./state/datasets.js";
export type {
  RunStore,
  RunStore as WorkflowStore,
  RunEnding,
  TaskInit,
  TaskStatus,
  WorkflowInit,
  WorkflowRun,
  WorkflowStatus,
  WorkflowTask,
} from "./state/runs.js";
