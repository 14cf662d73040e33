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

/**
 * A pipeline with one published version (3.14.0, the default) and a label, in workspace 42 on
 * its primary compute environment: what the pipeline-version tests roll a version out from.
 */
export const VERSIONED_PIPELINE: Seed = {
  computeEnvs: [{ id: "ce1", name: "aws", workspaceId: 42, primary: true, workDir: "s3://w" }],
  labels: [{ id: 5, name: "production", workspaceId: 42 }],
  pipelines: [
    {
      id: 7,
      name: "rnaseq",
      workspaceId: 42,
      labelIds: [5],
      launch: { computeEnvId: "ce1", revision: "3.14.0", paramsText: '{"genome":"GRCh38"}' },
      versions: [{ id: "v1", name: "3.14.0" }],
    },
  ],
};

/**
 * Where the launch tests launch, in workspace 42: two compute environments (aws-prod the
 * primary, aws-big an aws-batch one) and two labels (nightly, and the resource label team=bio).
 */
export const LAUNCH_PLACES = {
  computeEnvs: [
    { id: "ce-prod", name: "aws-prod", workspaceId: 42, primary: true, workDir: "s3://prod/work" },
    {
      id: "ce-big",
      name: "aws-big",
      workspaceId: 42,
      primary: false,
      workDir: "s3://big/work",
      platform: "aws-batch",
    },
  ],
  labels: [
    { name: "nightly", workspaceId: 42 },
    { name: "team", value: "bio", workspaceId: 42 },
  ],
} satisfies Seed;

/** LAUNCH_PLACES and one pipeline there, rnaseq, saved on aws-prod with one param. */
export const ONE_PIPELINE: Seed = {
  ...LAUNCH_PLACES,
  pipelines: [
    {
      name: "rnaseq",
      workspaceId: 42,
      repository: "https://github.com/nf-core/rnaseq",
      launch: { computeEnvId: "ce-prod", revision: "3.14.0", paramsText: '{"input":"a.csv"}' },
    },
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

/** Runs `check` on the emulator `started` gives, and closes it whatever `check` does. */
export async function withEmulator<T>(
  started: Promise<Emulator>,
  check: (emu: Emulator) => Promise<T>,
): Promise<T> {
  const emu = await started;
  try {
    return await check(emu);
  } finally {
    await emu.close();
  }
}
