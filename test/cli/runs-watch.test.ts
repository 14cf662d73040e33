import { type Emulator } from "seqera-api-client/testing";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { EXIT } from "../../src/cli/exit-codes.js";
import { runCli, type BuiltCli, cliAndEmulator, towerEnv } from "./cli.js";

let cli: BuiltCli;
let emulator: Emulator;

const HOUR = 3600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

beforeAll(async () => {
  ({ cli, emulator } = await cliAndEmulator({
    seed: {
      organizations: [{ name: "acme" }],
      workspaces: [
        { org: "acme", name: "prod", id: 42 },
        { org: "acme", name: "dev", id: 43 },
      ],
      labels: [{ name: "nightly", workspaceId: 42 }],
      computeEnvs: [
        { name: "batch", workspaceId: 42, id: "ce42", status: "AVAILABLE" },
        {
          name: "batch",
          workspaceId: 43,
          id: "ce43",
          status: "AVAILABLE",
          workDir: "s3://dev/work",
        },
      ],
      pipelines: [
        {
          name: "rnaseq",
          workspaceId: 42,
          launch: { computeEnvId: "ce42", workDir: "s3://prod/work" },
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
    env: towerEnv(emulator),
  });
const lines = (stdout: string) =>
  stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, any>);

describe("seqera-api runs", () => {
  test("--after 24h is exact to the instant; each run with its labels and elapsedMs, one JSON line", async () => {
    const nightly = emulator.state.labels.byName("nightly", 42)!.id;
    for (const [runName, hours] of [
      ["recent", 2],
      ["day-old", 23],
      ["too-old", 25],
    ] as const) {
      emulator.state.runs.add({
        workspaceId: 42,
        runName,
        status: "FAILED",
        labelIds: [nightly],
        dateCreated: ago(hours * HOUR),
        start: ago(hours * HOUR),
        complete: ago(hours * HOUR - 0.5 * HOUR),
      });
    }
    const result = await seqera([
      "runs",
      "-w",
      "acme/prod",
      "--status",
      "failed",
      "--after",
      "24h",
    ]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(EXIT.ok);
    expect(lines(result.stdout)).toMatchObject([
      {
        runName: "recent",
        labels: [{ name: "nightly" }],
        elapsedMs: 0.5 * HOUR,
        workspaceId: "42",
      },
      { runName: "day-old", elapsedMs: 0.5 * HOUR },
    ]);
  });

  test("an unknown --organization names the near ones", async () => {
    const result = await seqera(["runs", "--organization", "acmee"]);
    expect(result.stderr).toMatch(/No organization named "acmee"; did you mean "acme"\?/);
    expect(result.code).not.toBe(EXIT.ok);
  });
});

describe("seqera-api watch", () => {
  test("every workspace of an organization: a line per change, exit 1 when a run failed", async () => {
    const ok = emulator.state.runs.add({ workspaceId: 42, runName: "ok" });
    const bad = emulator.state.runs.add({
      workspaceId: 43,
      runName: "bad",
      ending: { status: "FAILED" },
    });
    const from = emulator.requests.length;
    // The service moves the runs on while the watch polls, from its first list on.
    const stepping = setInterval(() => {
      if (!emulator.requests.slice(from).some((r) => r.operationId === "ListWorkflows")) return;
      for (const run of [ok, bad]) {
        if (["SUBMITTED", "RUNNING"].includes(emulator.state.runs.get(run.id)!.status)) {
          emulator.state.runs.advance(run.id);
        }
      }
    }, 150);
    const result = await seqera([
      "watch",
      "--organization",
      "acme",
      "--poll-interval",
      "20ms",
    ]).finally(() => clearInterval(stepping));
    expect(result.stderr).toBe("");
    expect(result.code, result.stdout).toBe(EXIT.runFailed);
    const changes = lines(result.stdout).map(
      (c) => `${c.change} ${c.run.runName} ${c.previousStatus ?? "-"} ${c.run.status}`,
    );
    expect(changes.slice(0, 2).map((c) => c.split(" ").slice(0, 2).join(" "))).toEqual([
      "seen ok",
      "seen bad",
    ]);
    expect(changes).toContain("status ok RUNNING SUCCEEDED");
    expect(changes).toContain("status bad RUNNING FAILED");
    // One list call per workspace per poll; a run is described only once it left the list.
    const served = emulator.requests.slice(from).map((r) => r.operationId);
    const lists = served.filter((op) => op === "ListWorkflows").length;
    expect(lists % 2).toBe(0);
    expect(served.filter((op) => op === "DescribeWorkflow").length).toBeLessThanOrEqual(2);
  });
});

test("watch --organization: a workspace answering 403 is said on stderr, the others are watched to their end, exit 4", async () => {
  const ok = emulator.state.runs.add({ workspaceId: 42, runName: "ok-too" });
  emulator.state.runs.add({ workspaceId: 43, runName: "unseen" });
  emulator.setHandler("ListWorkflows", (request) =>
    request.query.workspaceId === 43 ? { status: 403, body: { message: "No access" } } : undefined,
  );
  const from = emulator.requests.length;
  const stepping = setInterval(() => {
    if (!emulator.requests.slice(from).some((r) => r.operationId === "ListWorkflows")) return;
    if (["SUBMITTED", "RUNNING"].includes(emulator.state.runs.get(ok.id)!.status)) {
      emulator.state.runs.advance(ok.id);
    }
  }, 150);
  try {
    const result = await seqera(["watch", "--organization", "acme", "--poll-interval", "20ms"]);
    expect(result.code, result.stderr).toBe(EXIT.auth);
    expect(result.stderr).toMatch(
      /^seqera-api watch: 403 GET \/workflow: .*No access; workspace acme\/dev is no longer watched, the others are\.\n$/,
    );
    const changes = lines(result.stdout).map((c) => `${c.change} ${c.run.runName} ${c.run.status}`);
    expect(changes[0]).toBe("seen ok-too SUBMITTED");
    expect(changes).toContain("status ok-too SUCCEEDED");
    expect(changes.some((c) => c.includes("unseen"))).toBe(false);
  } finally {
    clearInterval(stepping);
    emulator.clearHandlers();
  }
});

describe("seqera-api failed-tasks", () => {
  test("each failed task, its exit status and the last --lines of its stderr, one JSON line each", async () => {
    const run = emulator.state.runs.add({
      workspaceId: 42,
      status: "FAILED",
      tasks: [
        { process: "ALIGN", status: "FAILED", exitStatus: 137, stderr: "one\ntwo\nKilled" },
        { process: "QC", status: "COMPLETED", exitStatus: 0 },
      ],
    });
    const result = await seqera(["failed-tasks", run.id, "-w", "42", "--lines", "2"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(EXIT.ok);
    expect(lines(result.stdout)).toMatchObject([
      { name: "ALIGN", exitStatus: 137, stderr: ["two", "Killed"] },
    ]);
  });
});

describe("seqera-api copy-pipeline", () => {
  test("copies over copyPipeline: the compute environment by name, its work directory", async () => {
    const result = await seqera(["copy-pipeline", "rnaseq", "-w", "acme/prod", "--to", "acme/dev"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(EXIT.ok);
    const copied = JSON.parse(result.stdout);
    expect(copied).toMatchObject({ computeEnvId: "ce43", computeEnvBy: "name" });
    const created = emulator.requests.filter((r) => r.operationId === "CreatePipeline").at(-1)!;
    expect(created.search).toBe("workspaceId=43");
    expect(created.body).toMatchObject({
      name: "rnaseq",
      launch: { computeEnvId: "ce43", workDir: "s3://dev/work" },
    });
  });

  test("without --to: exit 2 before any request", async () => {
    const result = await seqera(["copy-pipeline", "rnaseq"]);
    expect(result.code).toBe(EXIT.usage);
    expect(result.stderr).toMatch(/--to is needed: the workspace to copy to/);
  });
});

describe("seqera-api relaunch --resume-if-available", () => {
  test("a run with nothing to resume runs afresh; the output says resumed: false", async () => {
    const run = emulator.state.runs.add({ workspaceId: 42, status: "CANCELLED" });
    const result = await seqera(["relaunch", run.id, "-w", "42", "--resume-if-available"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(EXIT.ok);
    expect(JSON.parse(result.stdout)).toMatchObject({ resumed: false });
  });
});
