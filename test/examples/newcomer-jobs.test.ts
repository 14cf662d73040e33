import { startEmulator, type Emulator } from "seqera-api-client/testing";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { copyPipelines, resumeLastNight } from "./newcomer-jobs.js";
import { stubTwVariables } from "./tw-variables.js";

// The two jobs new users wrote by hand, with the helpers, run as a user would
// (configured by the tw CLI's variables) against an emulator seeded with what they expect.
let emulator: Emulator;
const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600_000);

beforeAll(async () => {
  emulator = await startEmulator({
    seed: {
      organizations: [{ name: "acme" }],
      workspaces: [
        { org: "acme", name: "prod", id: 7 },
        { org: "acme", name: "dev", id: 8 },
      ],
      computeEnvs: [
        { id: "ce-prod-aws", name: "aws", workspaceId: 7, primary: true },
        { id: "ce-dev-aws", name: "aws", workspaceId: 8 },
        { id: "ce-dev-gcp", name: "gcp", workspaceId: 8, primary: true },
        { id: "ce-prod-hpc", name: "hpc", workspaceId: 7 },
      ],
      pipelines: [
        {
          name: "rnaseq",
          workspaceId: 7,
          launch: { computeEnvId: "ce-prod-aws", revision: "3.14.0" },
        },
        { name: "sarek", workspaceId: 7, launch: { computeEnvId: "ce-prod-hpc" } },
        { name: "hello", workspaceId: 7 },
        { name: "hello", workspaceId: 8 },
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

test("resume last night's failed runs: the resumable ones resumed, the others relaunched", async () => {
  const launch = { pipeline: "https://github.com/nf-core/rnaseq", computeEnvId: "ce-prod-aws" };
  const add = (runName: string, hours: number, status: "FAILED" | "SUCCEEDED" = "FAILED") =>
    emulator.state.runs.add({
      workspaceId: 7,
      runName,
      status,
      launch,
      dateCreated: hoursAgo(hours),
    });
  const resumable = add("resumable", 3);
  const uncommitted = add("no_commit", 5);
  delete uncommitted.commitId; // failed before it resolved a commit: cannot be resumed
  add("yesterday_morning", 30);
  add("fine", 2, "SUCCEEDED");
  const log = vi.spyOn(console, "log").mockImplementation(() => {});

  const resumed = await resumeLastNight("acme/prod");

  expect(Object.keys(resumed).sort()).toEqual([resumable.id, uncommitted.id].sort());
  const again = (id: string) => emulator.state.runs.get(resumed[id]!)!.launch;
  expect(again(resumable.id)).toMatchObject({
    resume: true,
    sessionId: resumable.sessionId,
    revision: resumable.commitId,
    id: resumable.launchId,
  });
  expect(again(uncommitted.id)).toMatchObject({ resume: false, id: uncommitted.launchId });
  // Why each failed, from its failed task.
  expect(log.mock.calls.map((c) => c[0])).toEqual(
    expect.arrayContaining(["resumable", "no_commit"]),
  );
  log.mockRestore();
});

test("copy a workspace's pipelines: the missing ones, compute envs mapped by name", async () => {
  const log = vi.spyOn(console, "log").mockImplementation(() => {});

  await expect(copyPipelines("acme/prod", "acme/dev")).resolves.toEqual(["rnaseq", "sarek"]);

  const copy = (name: string) => emulator.state.pipelines.byName(name, 8)!;
  // dev has an "aws" like prod's: that one; it has no "hpc": its primary.
  expect(copy("rnaseq").launch).toMatchObject({ computeEnvId: "ce-dev-aws", revision: "3.14.0" });
  expect(copy("sarek").launch).toMatchObject({ computeEnvId: "ce-dev-gcp" });
  const org = emulator.state.organizations.byName("acme", undefined)!;
  expect(log.mock.calls.map((c) => c[0])).toEqual([
    `rnaseq → acme (${org.id}), compute env by name`,
    `sarek → acme (${org.id}), compute env by primary`,
  ]);
  log.mockRestore();
});
