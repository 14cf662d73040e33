import { RunFailedError } from "seqera-api-client";
import { startEmulator, type Emulator } from "seqera-api-client/testing";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { cleanUp, costReport, rollOut } from "./rollout-jobs.js";
import { orgJobsSeed } from "./org-seed.js";
import { stubTwVariables } from "./tw-variables.js";

// The recipes of docs/recipes.md written with the helpers: a version rollout, a label and
// secret clean-up across an organization and a cost report, against a seeded emulator.
let emulator: Emulator;

beforeAll(async () => {
  emulator = await startEmulator({ autoAdvance: true, seed: orgJobsSeed() });
  stubTwVariables(emulator);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  await emulator.close();
});

test("version rollout: published, launched by name, made the default", async () => {
  const versions = await rollOut("acme/prod", "rnaseq", "3.15.0", 5);
  expect(versions.map((v) => [v.name, v.revision, v.isDefault])).toEqual([
    ["rnaseq-1", "3.14.0", false],
    ["3.15.0", "3.15.0", true],
  ]);
  expect(emulator.state.pipelines.byName("rnaseq", 7)!.launch.revision).toBe("3.15.0");
});

test("version rollout: a test run that fails leaves the default as it was", async () => {
  await expect(rollOut("acme/prod", "sarek", "3.5.0", 5)).rejects.toThrow(RunFailedError);
  expect(emulator.state.pipelines.byName("sarek", 7)!.launch.revision).toBe("3.4.0");
});

test("clean-up: the label and the secret gone from acme's workspaces, other's untouched", async () => {
  await expect(cleanUp("acme", "obsolete", "OLD_TOKEN")).resolves.toEqual(["prod", "dev"]);
  const names = (workspaceId: number) => [
    ...emulator.state.labels.list(workspaceId).map((l) => l.name),
    ...emulator.state.secrets.list(workspaceId).map((s) => s.name),
  ];
  expect([names(7), names(8), names(9)]).toEqual([[], ["keep"], ["obsolete", "OLD_TOKEN"]]);
});

test("cost report: the runs completed this week, one line each, and their total", async () => {
  const log = vi.spyOn(console, "log").mockImplementation(() => {});
  const total = await costReport("acme/prod");
  const lines = log.mock.calls.map((c) => String(c[0]).split("\t"));
  // This week's seeded run and the rollout's test runs; not last month's.
  expect(lines.map(([name, status]) => `${name} ${status}`)).toContain("monday SUCCEEDED");
  expect(lines.some(([name]) => name === "last_month")).toBe(false);
  const monday = lines.find(([name]) => name === "monday")!;
  expect(monday.slice(2, 4)).toEqual([String(2 * 3600_000), "4.2"]);
  expect(total).toBeCloseTo(lines.reduce((sum, line) => sum + Number(line[3] || 0), 0));
  log.mockRestore();
});
