import type { SeqeraClientOptions } from "../../src/index.js";
import { clientFor } from "../helpers/client.js";
import {
  startEmulator,
  type Emulator,
  type EmulatorOptions,
  type Seed,
} from "../../src/testing/index.js";

/** Two organizations: acme with workspaces prod (42) and dev (43), and other with prod (44). */
export const WORKSPACES: Seed = {
  organizations: [{ name: "acme" }, { name: "other" }],
  workspaces: [
    { org: "acme", name: "prod", id: 42 },
    { org: "acme", name: "dev", id: 43 },
    { org: "other", name: "prod", id: 44 },
  ],
};

/** An emulator with `seed` (after the workspaces above), no rate limit, state moved by the tests. */
export function seededEmulator(seed: Seed = {}, options: EmulatorOptions = {}): Promise<Emulator> {
  return startEmulator({
    rateLimit: false,
    ...options,
    seed: {
      ...seed,
      organizations: [...WORKSPACES.organizations!, ...(seed.organizations ?? [])],
      workspaces: [...WORKSPACES.workspaces!, ...(seed.workspaces ?? [])],
    },
  });
}

/** A client of the emulator in workspace 42, with the client's default retries. */
export const clientOf = (emulator: Emulator, options: SeqeraClientOptions = {}) =>
  clientFor(emulator, { workspaceId: 42, retry: {}, ...options });

/** The operationIds the emulator served since `from` (an index into its requests). */
export const servedSince = (emulator: Emulator, from: number) =>
  emulator.requests.slice(from).map((r) => r.operationId);

/** Fast polling for tests: the waits are real, so keep them short. */
export const FAST = { pollIntervalMs: 1, maxPollIntervalMs: 5 };
