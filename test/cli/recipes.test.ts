/**
 * The recipes of docs/recipes.md as seqera-api scripts (version rollout, clean-up across an
 * organization, cost report), run against a seeded emulator. They use jq.
 */
import { rm } from "node:fs/promises";
import type { Emulator } from "seqera-api-client/testing";
import { afterAll, beforeAll, expect, test } from "vitest";
import { orgJobsSeed } from "../examples/org-seed.js";
import { cliAndEmulator, runScript, type BuiltCli, requireJq } from "./cli.js";

let cli: BuiltCli;
let work: string;
let emulator: Emulator;

beforeAll(async () => {
  requireJq();
  ({ cli, emulator, work } = await cliAndEmulator(
    { autoAdvance: true, seed: orgJobsSeed() },
    "seqera-recipes-",
  ));
});
afterAll(async () => {
  await emulator?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const run = (script: string, args: string[] = []) =>
  runScript(cli.main, script, args, {
    work,
    emulator,
    env: { TOWER_WORKSPACE_ID: "acme/prod", POLL: "20ms" },
  });

test("version-rollout.sh: the version published, launched, made the default", async () => {
  const result = await run("version-rollout.sh", ["rnaseq", "3.15.0"]);
  expect(result).toMatchObject({ code: 0, stderr: "" });
  expect(result.stdout).toBe("rnaseq-1\t3.14.0\tfalse\n3.15.0\t3.15.0\ttrue\n");
});

test("org-cleanup.sh: acme's label and secret deleted, other's kept", async () => {
  const result = await run("org-cleanup.sh", ["acme", "obsolete", "OLD_TOKEN"]);
  expect(result).toMatchObject({ code: 0, stderr: "" });
  expect(result.stdout).toBe("7: label obsolete\n8: secret OLD_TOKEN\n");
  expect(emulator.state.labels.list(9).map((l) => l.name)).toEqual(["obsolete"]);
  expect(emulator.state.secrets.list(9).map((s) => s.name)).toEqual(["OLD_TOKEN"]);
});

test("cost-report.sh: a line per run completed this week, then the total", async () => {
  const result = await run("cost-report.sh");
  expect(result).toMatchObject({ code: 0, stderr: "" });
  const lines = result.stdout.trim().split("\n");
  expect(lines).toContainEqual(expect.stringMatching(/^monday\tSUCCEEDED\t7200\t4\.2\t/));
  expect(lines.at(-1)).toMatch(/^total cost: \d+(\.\d+)?$/);
});
