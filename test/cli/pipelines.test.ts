/**
 * seqera-api pipelines versions list|add|default, pipelines update, launch --version-name and
 * report, against the emulator: what they print, and what the service received.
 */
import { type Emulator } from "seqera-api-client/testing";
import { afterAll, beforeAll, expect, test } from "vitest";
import { EXIT } from "../../src/cli/exit-codes.js";
import { VERSIONED_PIPELINE } from "../automation/setup.js";
import { lines, runCli, type BuiltCli, cliAndEmulator, towerEnv } from "./cli.js";

let cli: BuiltCli;
let emulator: Emulator;

beforeAll(async () => {
  ({ cli, emulator } = await cliAndEmulator({
    seed: {
      workspaces: [{ org: "acme", name: "prod", id: 42 }],
      ...VERSIONED_PIPELINE,
      runs: [
        {
          id: "done1",
          workspaceId: 42,
          runName: "weekly",
          status: "SUCCEEDED",
          userName: "alice",
          launch: { pipeline: "https://github.com/nf-core/rnaseq", computeEnvId: "ce1" },
          dateCreated: "2024-05-08T01:00:00Z",
          submit: "2024-05-08T01:00:00Z",
          start: "2024-05-08T01:00:00Z",
          complete: "2024-05-08T03:00:00Z",
        },
      ],
    },
  }));
});
afterAll(async () => {
  await emulator?.close();
});

const seqera = (args: string[]) =>
  runCli(cli.main, args, {
    env: towerEnv(emulator, "acme/prod"),
  });
test("versions add, list, launch --version-name, versions default: a rollout from the shell", async () => {
  const added = await seqera([
    "pipelines",
    "versions",
    "add",
    "rnaseq",
    "--revision",
    "3.15.0",
    "--version-name",
    "3.15.0",
  ]);
  expect(added).toMatchObject({ code: EXIT.ok, stderr: "" });
  const version = JSON.parse(added.stdout);
  expect(version).toMatchObject({
    pipelineId: 7,
    name: "3.15.0",
    revision: "3.15.0",
    isDefault: false,
  });

  const listed = await seqera(["pipelines", "versions", "list", "rnaseq", "--published"]);
  expect(listed.code).toBe(EXIT.ok);
  const versions = lines(listed.stdout) as { name: string; revision: string; isDefault: boolean }[];
  expect(versions.map((v) => [v.name, v.revision, v.isDefault])).toEqual([
    ["3.14.0", "3.14.0", true],
    ["3.15.0", "3.15.0", false],
  ]);

  const launched = await seqera(["launch", "rnaseq", "--version-name", "3.15.0"]);
  expect(launched).toMatchObject({ code: EXIT.ok, stderr: "" });
  const launch = emulator.requests.filter((r) => r.operationId === "CreateWorkflowLaunch").at(-1)!;
  expect((launch.body as { launch: object }).launch).toMatchObject({
    id: version.versionId,
    revision: "3.15.0",
  });

  const made = await seqera([
    "pipelines",
    "versions",
    "default",
    "rnaseq",
    "--version-name",
    "3.15.0",
  ]);
  expect(made.code).toBe(EXIT.ok);
  expect(JSON.parse(made.stdout)).toEqual({
    pipelineId: 7,
    versionId: version.versionId,
    isDefault: true,
  });
  expect(emulator.state.pipelines.get(7)!.launch.revision).toBe("3.15.0");
  expect(emulator.state.pipelines.get(7)!.labelIds).toEqual([5]);
});

test("pipelines update keeps the labels; a missing version name says so with the near ones, exit 2", async () => {
  const updated = await seqera(["pipelines", "update", "rnaseq", "-d", "RNA-seq"]);
  expect(updated).toMatchObject({ code: EXIT.ok, stderr: "" });
  expect(emulator.state.pipelines.get(7)).toMatchObject({ description: "RNA-seq", labelIds: [5] });
  const missing = await seqera(["launch", "rnaseq", "--version-name", "3.14"]);
  expect(missing.code).toBe(EXIT.usage);
  // The workspace as the session's client has it: its id, once looked up.
  expect(missing.stderr).toMatch(
    /^seqera-api: No published version named "3\.14" of pipeline rnaseq in workspace \S+; did you mean "3\.14\.0"\?\n$/,
  );
});

test("versions add with a taken name: exit 2 before anything is written, no draft left", async () => {
  const versions = emulator.state.pipelines.get(7)!.versions.length;
  const taken = await seqera([
    "pipelines",
    "versions",
    "add",
    "rnaseq",
    "--revision",
    "4.0.0",
    "--version-name",
    "3.14.0",
  ]);
  expect(taken).toMatchObject({
    code: EXIT.usage,
    stdout: "",
    stderr:
      'seqera-api: Pipeline rnaseq already has a version named "3.14.0": give the new version another name.\n',
  });
  expect(emulator.state.pipelines.get(7)!.versions).toHaveLength(versions);
});

test("usage: a version default needs one of --version-name and --version-id; add needs --revision", async () => {
  const none = await seqera(["pipelines", "versions", "default", "rnaseq"]);
  expect(none).toMatchObject({ code: EXIT.usage });
  expect(none.stderr).toContain("needs --version-name or --version-id (one)");
  const noRevision = await seqera(["pipelines", "versions", "add", "rnaseq"]);
  expect(noRevision.stderr).toContain("needs --revision <ref>");
});

test("report: the runs completed in the window, one JSON line each", async () => {
  const result = await seqera([
    "report",
    "--after",
    "2024-05-07T00:00:00Z",
    "--before",
    "2024-05-10",
  ]);
  expect(result).toMatchObject({ code: EXIT.ok, stderr: "" });
  expect(lines(result.stdout)).toEqual([
    expect.objectContaining({
      workflowId: "done1",
      runName: "weekly",
      // Who launched it, to group by.
      userName: "alice",
      status: "SUCCEEDED",
      durationMs: 7_200_000,
      complete: "2024-05-08T03:00:00Z",
    }),
  ]);
  const bad = await seqera(["report", "--after", "last week"]);
  expect(bad).toMatchObject({ code: EXIT.usage });
  expect(bad.stderr).toContain(
    "expected an instant (2024-05-10T09:00:00Z), a day (2024-05-10) or a duration ago (24h, 7d)",
  );
});
