import { startEmulator, type Emulator } from "seqera-api-client/testing";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { dataLinkInventory } from "./data-link-inventory.js";
import { stopStaleStudios } from "./studio-cleanup.js";
import { onboardTeam } from "./team-onboarding.js";
import { expectOnboarded, resourceJobsSeed } from "./resource-jobs-seed.js";
import { stubTwVariables } from "./tw-variables.js";

// The recipes of docs/recipes.md over data links, studios and teams, run against an emulator
// that is only seeded: no handler stands in for any operation.
let emulator: Emulator;

beforeAll(async () => {
  emulator = await startEmulator({ seed: resourceJobsSeed() });
  stubTwVariables(emulator);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await emulator.close();
});

test("a data-link inventory: status, objects and bytes under a folder", async () => {
  expect(await dataLinkInventory("acme/prod", "runs")).toEqual([
    { name: "acme-raw", status: "VALID", objects: 2, bytes: 3000 },
    { name: "acme-old", status: "INVALID", objects: 0, bytes: 0 },
  ]);
});

test("a studio clean-up across an organization stops only the stale running ones", async () => {
  expect(await stopStaleStudios("acme", 24)).toEqual(["stale", "old-dev"]);
  const statuses = emulator.state.studios.all().map((s) => [s.name, s.status]);
  expect(statuses).toEqual([
    ["stale", "stopping"],
    ["fresh", "running"],
    ["old-dev", "stopping"],
    ["off", "stopped"],
  ]);
});

test("a team onboarding is idempotent: run twice, the same team, members and roles", async () => {
  for (let i = 0; i < 2; i++) {
    await onboardTeam("acme", "bioinfo", ["ANA@acme.org", "bo@acme.org"], {
      prod: "maintain",
      dev: "launch",
    });
  }
  expectOnboarded(emulator);
});
