/**
 * The `testing` entry point: a local emulator of the Seqera Platform API for tests of code
 * that uses this client. Kept apart from the main entry so that it never loads in production.
 * The emulator's stores and records reach users through `Emulator`'s own types.
 */
export { startEmulator, Emulator } from "./emulator.js";
export type { EmulatorOptions } from "./emulator-options.js";
export type { Handler, RecordedRequest, Schema } from "./types.js";
export type { Seed } from "./state/state.js";
