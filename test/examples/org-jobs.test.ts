import { RunFailedError } from "seqera-api-client";
import { startEmulator, type Emulator } from "seqera-api-client/testing";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { cleanUp, costReport, rollOut } from "./org-jobs.js";
import { stubTwVariables } from "./tw-variables.js";

// The recipes of docs/recipes.md written with the helpers: a version rollout, a label and
// secret clean-up across an organization and a cost report, against a seeded emulator.
let emulator: Emulator;
const ago = (hours: number) => new Date(Date.now() - hours * 3600_000).toISOString();

beforeAll(async () => {
  emulator = await startEmulator({
    autoAdvance: true,
    seed: {
      organizations: [{ name: "acme" }, { name: "other" }],
      workspaces: [
        { org: "acme", name: "prod", id: 7 },
        { org: "acme", name: "dev", id: 8 },
        { org: "other", name: "lab", id: 9 },
      ],
      computeEnvs: [{ id: "ce1", name: "aws", workspaceId: 7, primary: true }],
      labels: [
        { name: "obsolete", workspaceId: 7 },
        { name: "obsolete", workspaceId: 9 },
        { name: "keep", workspaceId: 8 },
      ],
      secrets: [
        { name: "OLD_TOKEN", value: "x", workspaceId: 8 },
        { name: "OLD_TOKEN", value: "x", workspaceId: 9 },
      ],
      pipelines: [
        { name: "rnaseq", workspaceId: 7, launch: { computeEnvId: "ce1", revision: "3.14.0" } },
        {
          name: "sarek",
          workspaceId: 7,
          launch: { computeEnvId: "ce1", revision: "3.4.0" },
          ending: { status: "FAILED", task: "MULTIQC", exitStatus: 2 },
        },
      ],
      runs: [
        {
          workspaceId: 7,
          runName: "monday",
          status: "SUCCEEDED",
          launch: { pipeline: "https://github.com/nf-core/rnaseq", computeEnvId: "ce1" },
          dateCreated: ago(50),
          submit: ago(50),
          start: ago(50),
          complete: ago(48),
        },
        {
          workspaceId: 7,
          runName: "last_month",
          status: "SUCCEEDED",
          launch: { pipeline: "https://github.com/nf-core/rnaseq", computeEnvId: "ce1" },
          dateCreated: ago(24 * 30),
          submit: ago(24 * 30),
          start: ago(24 * 30),
          complete: ago(24 * 30 - 1),
        },
      ],
    },
  });
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
  expect(Number(monday[2])).toBe(2 * 3600_000);
  expect(total).toBeCloseTo(lines.reduce((sum, line) => sum + Number(line[3] || 0), 0));
  log.mockRestore();
});
