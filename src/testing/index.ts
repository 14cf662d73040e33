/**
 * The `testing` entry point: a local emulator of the Seqera Platform API for tests of code
 * that uses this client. Kept apart from the main entry so that it never loads in production.
 */
export { startEmulator, Emulator, type EmulatorOptions } from "./emulator.js";
export type { Faults, FaultKind, FaultOptions } from "./faults.js";
export type { RateLimitOptions } from "./rate-limit.js";
export type { EmulatorRequest, EmulatorResponse, Handler, RecordedRequest } from "./types.js";
export type { WorkflowInit, WorkflowRun, WorkflowStatus, WorkflowStore } from "./workflows.js";
