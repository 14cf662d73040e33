import { readFileSync } from "node:fs";
import { expect } from "vitest";
import { applyPlan, planResources } from "../../../src/index.js";
import { clientOf, seededEmulator, withEmulator } from "../setup.js";

/** The variables acme.yml reads. */
export const ENV = { AWS_KEY: "AKIA123", AWS_SECRET: "s3cr3t-value", TOKEN: "tok-value" };

/**
 * The variables an export of FILE's workspace reads (its secret values); every key of the
 * provider is written, and one not used is set empty.
 */
export const EXPORTED_ENV = {
  API_TOKEN_VALUE: "tok-value",
  AWS_KEYS_ACCESS_KEY: "AKIA123",
  AWS_KEYS_SECRET_KEY: "s3cr3t-value",
  AWS_KEYS_ASSUME_ROLE_ARN: "",
};

/** A file with every kind plan and apply support, as seqerakit writes it (docs/workspaces-as-code.md shows it). */
export const FILE = readFileSync(new URL("acme.yml", import.meta.url), "utf8");

/** A data link and an action in FILE's workspace, on its credentials and compute env (the docs show it). */
export const ACTIONS = readFileSync(new URL("actions.yml", import.meta.url), "utf8");

/** What applying FILE to an empty workspace does, in order of dependence. */
export const CREATED = [
  "create labels team=genomics",
  "create credentials aws-keys",
  "create secrets API_TOKEN",
  "create compute-envs aws-eu",
  "create pipelines hello",
  "create datasets samples",
];

/** The emulator with FILE applied, and a client of it. */
async function applied() {
  const emu = await seededEmulator({}, { autoAdvance: true });
  const client = clientOf(emu);
  const plan = await planResources(client, [FILE], { env: ENV });
  expect((await applyPlan(client, plan)).failed).toBeUndefined();
  return { emu, client };
}

/** Runs `check` on the emulator with FILE applied, then closes the emulator. */
export async function onApplied(
  check: (made: Awaited<ReturnType<typeof applied>>) => Promise<void>,
): Promise<void> {
  const made = applied();
  await withEmulator(
    made.then(({ emu }) => emu),
    async () => check(await made),
  );
}
