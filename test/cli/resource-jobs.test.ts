/**
 * The data-link inventory, the studio clean-up and the team onboarding as seqera-api scripts
 * (test/cli/*.sh, with jq), against an emulator that is only seeded, as in the library's
 * examples (test/examples/resource-jobs.test.ts).
 */
import { rm } from "node:fs/promises";
import type { Emulator } from "seqera-api-client/testing";
import { afterAll, beforeAll, expect, test } from "vitest";
import { expectOnboarded, resourceJobsSeed } from "../examples/resource-jobs-seed.js";
import { cliAndEmulator, runScript, type BuiltCli, requireJq } from "./cli.js";

let cli: BuiltCli;
let work: string;
let emulator: Emulator;
beforeAll(async () => {
  requireJq();
  ({ cli, emulator, work } = await cliAndEmulator({ seed: resourceJobsSeed() }, "seqera-jobs-"));
});
afterAll(async () => {
  await emulator?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

async function script(name: string, args: string[], input?: string) {
  const result = await runScript(cli.main, name, args, {
    work,
    emulator,
    env: { TOWER_WORKSPACE_ID: "acme/prod" },
    stdin: input,
    // A bound, not a timing: CLI processes start slowly on a loaded machine.
    limitMs: 180_000,
  });
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return result.stdout;
}

test("data-link-inventory.sh: status, objects and bytes under a folder", async () => {
  expect(await script("data-link-inventory.sh", ["runs"])).toBe(
    "acme-raw VALID 2 3000\nacme-old INVALID 0 0\n",
  );
});

test("studio-cleanup.sh: stops the studios running for more than 24 hours", async () => {
  expect(await script("studio-cleanup.sh", ["acme", "24"])).toBe(
    "stopped stale\nstopped old-dev\n",
  );
  expect(emulator.state.studios.all().map((s) => s.status)).toEqual([
    "stopping",
    "running",
    "stopping",
    "stopped",
  ]);
});

test("team-onboarding.sh: run twice, one team, its members and its roles", async () => {
  for (let i = 0; i < 2; i++) {
    await script(
      "team-onboarding.sh",
      ["acme", "bioinfo", "prod=maintain", "dev=launch"],
      "ANA@acme.org\nbo@acme.org\n",
    );
  }
  expectOnboarded(emulator);
}, 400_000);
