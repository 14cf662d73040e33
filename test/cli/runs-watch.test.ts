import { startEmulator, type Emulator } from "seqera-api-client/testing";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { EXIT } from "../../src/cli/exit-codes.js";
import { sharedBuild, runCli, type BuiltCli } from "./cli.js";

let cli: BuiltCli;
let emulator: Emulator;

const HOUR = 3600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

beforeAll(async () => {
  [cli, emulator] = await Promise.all([
    sharedBuild(),
    startEmulator({
      seed: {
        organizations: [{ name: "acme" }],
        workspaces: [
          { org: "acme", name: "prod", id: 42 },
          { org: "acme", name: "dev", id: 43 },
        ],
        labels: [{ name: "nightly", workspaceId: 42 }],
      },
    }),
  ]);
});
afterAll(async () => {
  await emulator?.close();
});

const seqera = (args: string[]) =>
  runCli(cli.main, args, {
    env: { TOWER_API_ENDPOINT: emulator.url, TOWER_ACCESS_TOKEN: emulator.token },
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
    // The service moves the runs on while the watch polls.
    const stepping = setInterval(() => {
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
    expect(result.code).toBe(EXIT.runFailed);
    const changes = lines(result.stdout).map(
      (c) => `${c.change} ${c.run.runName} ${c.previousStatus ?? "-"} ${c.run.status}`,
    );
    // Seen first at whatever step the service had got to when the CLI started.
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
