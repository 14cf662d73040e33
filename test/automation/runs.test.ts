import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import {
  ComputeEnvFailedError,
  ForbiddenError,
  RunFailedError,
  WaitTimeoutError,
  failedTasks,
  listRuns,
  waitForComputeEnv,
  waitForRun,
  watchRuns,
} from "../../src/index.js";
import { pollDelays } from "../../src/automation/poll.js";
import { ConfigurationError } from "../../src/index.js";
import type { Emulator } from "../../src/testing/index.js";
import { FAST, clientOf, seededEmulator, servedSince } from "./setup.js";

let emulator: Emulator;
beforeAll(async () => {
  emulator = await seededEmulator();
});
afterAll(() => emulator.close());
afterEach(() => emulator.clearHandlers());

const ago = (ms: number) => new Date(Date.now() - ms);
const newRun = (workspaceId = 42) => emulator.state.runs.add({ workspaceId }).id;

/** Each poll moves the run one step, as time would on the service. */
function advanceOnPoll(): void {
  emulator.setHandler("DescribeWorkflow", (request) => {
    const run = emulator.state.runs.get(String(request.params.workflowId));
    if (run && (run.status === "SUBMITTED" || run.status === "RUNNING")) {
      emulator.state.runs.advance(run.id);
    }
    return undefined;
  });
}

describe("waitForRun", () => {
  test("polls until the run ends; resolves with the final run; reports each status once", async () => {
    advanceOnPoll();
    const id = newRun();
    const seen: (string | undefined)[] = [];
    const run = await waitForRun(clientOf(emulator), id, {
      ...FAST,
      onStatus: (r) => seen.push(r.status ?? undefined),
    });
    expect(run).toMatchObject({ id, status: "SUCCEEDED" });
    // SUBMITTED → RUNNING (task 1) → RUNNING (task 2) → SUCCEEDED: RUNNING is reported once.
    expect(seen).toEqual(["RUNNING", "SUCCEEDED"]);
  });

  test("stops at a status of `until`", async () => {
    advanceOnPoll();
    const id = newRun();
    const run = await waitForRun(clientOf(emulator), id, { ...FAST, until: ["RUNNING"] });
    expect(run.status).toBe("RUNNING");
    expect(emulator.state.runs.get(id)!.status).toBe("RUNNING");
  });

  test("a failed run is a RunFailedError with its error message and failed tasks", async () => {
    const id = newRun();
    const error = await waitForRun(clientOf(emulator), id, {
      ...FAST,
      // The run fails while it is being waited for.
      onStatus: (r) => {
        if (r.status === "SUBMITTED") emulator.state.runs.finish(id, "FAILED", "Out of memory");
      },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunFailedError);
    const failed = error as RunFailedError;
    expect(failed).toMatchObject({
      workflowId: id,
      status: "FAILED",
      errorMessage: "Out of memory",
    });
    expect(failed.failedTasks.map((t) => [t.name, t.status, t.exitStatus])).toEqual([
      ["FASTQC (sample_1)", "FAILED", 1],
    ]);
    expect(failed.message).toContain("Out of memory");
    expect(failed.message).toContain("FASTQC (sample_1)");
  });

  test("a cancelled run is a RunFailedError too, unless the caller opts out", async () => {
    const cancelled = emulator.state.runs.add({ workspaceId: 42, status: "CANCELLED" }).id;
    await expect(waitForRun(clientOf(emulator), cancelled, FAST)).rejects.toMatchObject({
      name: "RunFailedError",
      status: "CANCELLED",
      failedTasks: [],
    });
    const run = await waitForRun(clientOf(emulator), cancelled, { ...FAST, throwOnFailure: false });
    expect(run.status).toBe("CANCELLED");
    // Waiting for FAILED itself is not a failure.
    const failed = emulator.state.runs.add({ workspaceId: 42, status: "FAILED" }).id;
    await expect(
      waitForRun(clientOf(emulator), failed, { ...FAST, until: ["FAILED"] }),
    ).resolves.toMatchObject({ status: "FAILED" });
  });

  test("gives up after maxWaitMs with a WaitTimeoutError naming the last status", async () => {
    const id = emulator.state.runs.add({ workspaceId: 42, status: "RUNNING" }).id;
    // Long enough for the first answer on a loaded machine (50 ms was not), so a status is known.
    const error = await waitForRun(clientOf(emulator), id, { ...FAST, maxWaitMs: 1000 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect(error).toMatchObject({ resource: "run", id, maxWaitMs: 1000, lastStatus: "RUNNING" });
    expect((error as Error).message).toMatch(/still RUNNING/);
  });

  test("stops when the signal aborts, with its reason", async () => {
    const id = newRun();
    const controller = new AbortController();
    const reason = new Error("deploy cancelled");
    const wait = waitForRun(clientOf(emulator), id, {
      ...FAST,
      signal: controller.signal,
      onStatus: () => controller.abort(reason),
    });
    await expect(wait).rejects.toBe(reason);
  });

  test("a run of another workspace is a ForbiddenError, as the service answers", async () => {
    const elsewhere = newRun(43);
    await expect(waitForRun(clientOf(emulator), elsewhere, FAST)).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    // Named by "org/workspace", the same run is found.
    await expect(
      waitForRun(clientOf(emulator).withWorkspace("acme/dev"), elsewhere, {
        ...FAST,
        until: ["SUBMITTED"],
      }),
    ).resolves.toMatchObject({ id: elsewhere });
  });

  test("failedTasks lists a run's failed tasks", async () => {
    const id = emulator.state.runs.add({ workspaceId: 42, status: "FAILED" }).id;
    const tasks = await failedTasks(clientOf(emulator), id);
    expect(tasks.map((t) => t.status)).toEqual(["FAILED"]);
  });
});

describe("poll interval", () => {
  test("grows by half while nothing changes, up to the maximum, and starts again on a change", () => {
    const next = pollDelays({ pollIntervalMs: 100, maxPollIntervalMs: 300 });
    expect([next(true), next(false), next(false), next(false), next(false)]).toEqual([
      100, 150, 225, 300, 300,
    ]);
    expect(next(true)).toBe(100);
  });

  test("defaults to 5 s growing to 60 s; bad values are a ConfigurationError", () => {
    const next = pollDelays({});
    expect(next(true)).toBe(5000);
    expect(() => pollDelays({ pollIntervalMs: 0 })).toThrow(ConfigurationError);
    expect(() => pollDelays({ maxPollIntervalMs: Number.NaN })).toThrow(ConfigurationError);
  });
});

describe("waitForComputeEnv", () => {
  test("resolves once a CREATING compute env is AVAILABLE", async () => {
    const env = emulator.state.computeEnvs.add({
      name: "new-ce",
      workspaceId: 42,
      status: "CREATING",
    });
    let polls = 0;
    const ready = await waitForComputeEnv(clientOf(emulator), env.id, {
      ...FAST,
      onStatus: (c) => {
        if (c.status === "CREATING" && ++polls === 1)
          emulator.state.computeEnvs.setStatus(env.id, "AVAILABLE");
      },
    });
    expect(ready).toMatchObject({ id: env.id, status: "AVAILABLE", name: "new-ce" });
  });

  test("ERRORED is a ComputeEnvFailedError with the service's message", async () => {
    const env = emulator.state.computeEnvs.add({
      name: "bad-ce",
      workspaceId: 42,
      status: "CREATING",
    });
    const error = await waitForComputeEnv(clientOf(emulator), env.id, {
      ...FAST,
      onStatus: (c) => {
        if (c.status === "CREATING")
          emulator.state.computeEnvs.setStatus(env.id, "ERRORED", "No quota in eu-west-1");
      },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ComputeEnvFailedError);
    expect(error).toMatchObject({
      computeEnvId: env.id,
      status: "ERRORED",
      reason: "No quota in eu-west-1",
    });
  });

  test("times out naming CREATING", async () => {
    const env = emulator.state.computeEnvs.add({
      name: "slow-ce",
      workspaceId: 42,
      status: "CREATING",
    });
    // Long enough for a first answer on a loaded machine (at 30 ms, none came at load 20).
    await expect(
      waitForComputeEnv(clientOf(emulator), env.id, { ...FAST, maxWaitMs: 1_500 }),
    ).rejects.toMatchObject({
      name: "WaitTimeoutError",
      resource: "compute environment",
      lastStatus: "CREATING",
    });
  });
});

describe("listRuns", () => {
  test("filters by status, dates and labels through the runs search, newest first", async () => {
    const emu = await seededEmulator({
      labels: [{ name: "nightly", workspaceId: 42 }],
    });
    try {
      const nightly = emu.state.labels.byName("nightly", 42)!.id;
      const at = (day: string) => `2024-05-${day}T12:00:00Z`;
      for (const [runName, status, day, labelIds] of [
        ["a", "FAILED", "01", []],
        ["b", "FAILED", "10", [nightly]],
        ["c", "SUCCEEDED", "11", [nightly]],
        ["d", "CANCELLED", "12", []],
        ["e", "FAILED", "20", []],
      ] as const) {
        emu.state.runs.add({
          workspaceId: 42,
          runName,
          status,
          dateCreated: at(day),
          labelIds: [...labelIds],
        });
      }
      const names = async (options: Parameters<typeof listRuns>[1]) => {
        const found: string[] = [];
        for await (const run of listRuns(clientOf(emu), options)) found.push(run.runName!);
        return found;
      };
      const from = emu.requests.length;
      await expect(
        names({ status: "FAILED", after: new Date(at("05")), before: "2024-05-15" }),
      ).resolves.toEqual(["b"]);
      expect(emu.requests[from]!.search).toContain(
        `search=${encodeURIComponent("status:FAILED after:2024-05-05 before:2024-05-15")}`,
      );
      await expect(
        names({ status: ["FAILED", "CANCELLED"], after: "2024-05-10" }),
      ).resolves.toEqual(["e", "d", "b"]);
      await expect(names({ labels: ["nightly"] })).resolves.toEqual(["c", "b"]);
      await expect(names({ limit: 2 })).resolves.toEqual(["e", "d"]);
    } finally {
      await emu.close();
    }
  });
});

describe("listRuns while runs are launched", () => {
  test("a run launched between two pages does not give the run it pushed down twice", async () => {
    const emu = await seededEmulator();
    try {
      const minute = 60_000;
      for (let i = 0; i < 150; i++) {
        emu.state.runs.add({ workspaceId: 42, submit: ago((200 - i) * minute) });
      }
      // The second page is read after one more run was launched: offset 100 now starts one
      // run earlier, at the last run of the first page.
      emu.setHandler("ListWorkflows", (request) => {
        if (request.query.offset === 100 && emu.state.runs.list(42).length === 150) {
          emu.state.runs.add({ workspaceId: 42, submit: new Date() });
        }
        return undefined;
      });
      const ids: string[] = [];
      for await (const run of listRuns(clientOf(emu))) ids.push(run.id);
      expect(ids).toHaveLength(150);
      expect(new Set(ids).size).toBe(150);
    } finally {
      await emu.close();
    }
  });
});

describe("listRuns to the instant", () => {
  test("a Date or date-time bounds by submit time, though the service takes whole days", async () => {
    const emu = await seededEmulator();
    try {
      // One day, four runs: 01:00, 09:00, 15:00, 23:00 UTC.
      for (const hour of ["01", "09", "15", "23"]) {
        emu.state.runs.add({
          workspaceId: 42,
          runName: `h${hour}`,
          status: "FAILED",
          dateCreated: `2024-05-10T${hour}:00:00Z`,
        });
      }
      const names = async (options: Parameters<typeof listRuns>[1]) => {
        const found: string[] = [];
        for await (const run of listRuns(clientOf(emu), options)) found.push(run.runName!);
        return found;
      };
      const from = emu.requests.length;
      await expect(names({ after: new Date("2024-05-10T09:00:00Z") })).resolves.toEqual([
        "h23",
        "h15",
        "h09",
      ]);
      // The service was asked for the day; the hours before 09:00 were left out here.
      expect(emu.requests[from]!.search).toContain(
        `search=${encodeURIComponent("after:2024-05-10")}`,
      );
      await expect(
        names({ after: "2024-05-10T05:00:00Z", before: "2024-05-10T16:00:00+00:00" }),
      ).resolves.toEqual(["h15", "h09"]);
      // A day stays a day, and a limit counts the runs given, not the runs filtered out.
      await expect(names({ after: "2024-05-10" })).resolves.toHaveLength(4);
      await expect(names({ before: new Date("2024-05-10T20:00:00Z"), limit: 2 })).resolves.toEqual([
        "h15",
        "h09",
      ]);
      await expect(names({ after: "yesterday" })).rejects.toThrow(
        'listRuns: `after` is a Date, an ISO 8601 date-time or "YYYY-MM-DD", got "yesterday"',
      );
    } finally {
      await emu.close();
    }
  });
});

describe("listRuns gives labels and elapsed times", () => {
  test("each run with its labels (attributes=labels), elapsedMs and workspace; completedAfter", async () => {
    const emu = await seededEmulator({
      labels: [{ name: "team", value: "genomics", workspaceId: 42 }],
    });
    try {
      const team = emu.state.labels.byName("team", 42)!.id;
      emu.state.runs.add({
        workspaceId: 42,
        runName: "ended",
        status: "FAILED",
        labelIds: [team],
        start: "2024-05-10T10:00:00Z",
        complete: "2024-05-10T12:30:00Z",
      });
      const going = emu.state.runs.add({ workspaceId: 42, runName: "going" });
      emu.state.runs.advance(going.id);
      const from = emu.requests.length;
      const runs = [];
      for await (const run of listRuns(clientOf(emu))) runs.push(run);
      expect(emu.requests[from]!.search).toContain("attributes=labels");
      const [running, ended] = runs;
      expect(ended).toMatchObject({
        runName: "ended",
        labels: [{ name: "team", value: "genomics" }],
        elapsedMs: 2.5 * 3600_000,
        workspaceId: "42",
      });
      expect(running).toMatchObject({ runName: "going", status: "RUNNING", labels: [] });
      expect(running!.elapsedMs).toBeGreaterThanOrEqual(0);
      expect(running!.elapsedMs).toBeLessThan(60_000);
      const completed = [];
      for await (const run of listRuns(clientOf(emu), {
        completedAfter: new Date("2024-05-10T12:00:00Z"),
      }))
        completed.push(run.runName);
      expect(completed).toEqual(["ended"]);
    } finally {
      await emu.close();
    }
  });
});

describe("watchRuns", () => {
  test("one list call per workspace per poll; yields runs seen, status changes and ends", async () => {
    const emu = await seededEmulator();
    try {
      const a = emu.state.runs.add({ workspaceId: 42, runName: "a" });
      const b = emu.state.runs.add({ workspaceId: 43, runName: "b" });
      emu.state.runs.add({ workspaceId: 43, runName: "old", status: "SUCCEEDED" });
      const from = emu.requests.length;
      const changes: string[] = [];
      let polls = 0;
      for await (const { change, run, previousStatus } of watchRuns(clientOf(emu), {
        workspaces: ["acme/prod", 43],
        untilEnded: true,
        ...FAST,
      })) {
        changes.push(
          `${change} ${run.runName} ${previousStatus ?? "-"} ${run.status} ${run.workspaceId}`,
        );
        // The service moves on between polls: a starts, then ends; b fails.
        if (++polls === 2) emu.state.runs.advance(a.id);
        if (run.status === "RUNNING") {
          emu.state.runs.finish(a.id, "SUCCEEDED");
          emu.state.runs.finish(b.id, "FAILED", "Out of memory");
        }
      }
      expect(changes).toEqual([
        "seen a - SUBMITTED 42",
        "seen b - SUBMITTED 43",
        "status a SUBMITTED RUNNING 42",
        "status a RUNNING SUCCEEDED 42",
        "status b SUBMITTED FAILED 43",
      ]);
      const served = servedSince(emu, from);
      // Two lookups of "acme/prod", then per poll one list per workspace; a run gone from the
      // list of going runs is described once.
      expect(served.filter((op) => op === "DescribeWorkflow")).toHaveLength(2);
      expect(served.filter((op) => op === "ListWorkflows")).toHaveLength(2 * 3);
      const list = emu.requests.slice(from).find((r) => r.operationId === "ListWorkflows");
      expect(list!.search).toContain(
        `search=${encodeURIComponent("status:SUBMITTED status:RUNNING")}`,
      );
    } finally {
      await emu.close();
    }
  });

  test("120 workspaces of an organization stay within the rate limit: 120 list calls a poll, no 429", async () => {
    const perSecond = 200;
    const workspaces = Array.from({ length: 120 }, (_, i) => ({
      org: "lab",
      name: `ws${i}`,
      id: 1000 + i,
    }));
    const emu = await seededEmulator(
      { organizations: [{ name: "lab" }], workspaces },
      { rateLimit: { perSecond, perHour: 72_000, mode: "sliding" } },
    );
    try {
      for (const w of workspaces) emu.state.runs.add({ workspaceId: w.id });
      const from = emu.requests.length;
      const client = clientOf(emu, { rateLimit: { perSecond, perHour: 72_000 } });
      let seen = 0;
      let polls = 0;
      const started = Date.now();
      for await (const change of watchRuns(client, { organization: "lab", ...FAST })) {
        seen++;
        // Each poll's changes come at once: the first poll's 120 runs, then a status change.
        if (seen === 120) emu.state.runs.advance(emu.state.runs.list(1119)[0]!.id);
        if (change.change === "status" && ++polls === 1) break;
      }
      const served = emu.requests.slice(from);
      expect(served.filter((r) => r.status === 429)).toEqual([]);
      expect(served.filter((r) => r.operationId === "ListWorkflows").length).toBeGreaterThanOrEqual(
        240,
      );
      expect(served.filter((r) => r.operationId === "ListWorkflows").length).toBeLessThanOrEqual(
        360,
      );
      // The limiter paced them: at most `perSecond` calls in any second.
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    } finally {
      await emu.close();
    }
  });

  test("a workspace answering 403 leaves the watch; the others' changes of that poll stand; a deleted run is gone", async () => {
    const emu = await seededEmulator();
    try {
      const a = emu.state.runs.add({ workspaceId: 42, runName: "a" });
      const c = emu.state.runs.add({ workspaceId: 42, runName: "c" });
      emu.state.runs.add({ workspaceId: 43, runName: "b" });
      let refused = false;
      emu.setHandler("ListWorkflows", (request) =>
        refused && request.query.workspaceId === 43
          ? { status: 403, body: { message: "Forbidden" } }
          : undefined,
      );
      const changes: string[] = [];
      const lost: string[] = [];
      for await (const { change, run } of watchRuns(clientOf(emu), {
        organization: "acme",
        untilEnded: true,
        onWorkspaceLost: (workspace, error) => lost.push(`${workspace} ${error.status}`),
        ...FAST,
      })) {
        changes.push(`${change} ${run.runName} ${run.status}`);
        // Between the first poll and the second: dev refuses, c is deleted, a starts.
        if (changes.length === 3) {
          refused = true;
          emu.state.runs.delete(c.id);
          emu.state.runs.advance(a.id);
        }
        if (run.status === "RUNNING") emu.state.runs.finish(a.id, "SUCCEEDED");
      }
      expect(changes).toEqual([
        "seen c SUBMITTED",
        "seen a SUBMITTED",
        "seen b SUBMITTED",
        "status a RUNNING",
        "gone c SUBMITTED",
        "gone b SUBMITTED",
        "status a SUCCEEDED",
      ]);
      expect(lost).toEqual(["acme/dev 403"]);
    } finally {
      await emu.close();
    }
  });

  test("the one workspace watched answering 403 ends the watch with the ForbiddenError", async () => {
    emulator.setHandler("ListWorkflows", () => ({ status: 403, body: { message: "Forbidden" } }));
    await expect(watchRuns(clientOf(emulator), FAST).next()).rejects.toBeInstanceOf(ForbiddenError);
  });

  test("an unknown organization is a NameNotFoundError naming the near ones", async () => {
    await expect(watchRuns(clientOf(emulator), { organization: "acm" }).next()).rejects.toThrow(
      'No organization named "acm"; did you mean "acme"?',
    );
  });
});

describe("failedTasks with stderrLines", () => {
  test("each failed task with its exit status and the last lines of its standard error", async () => {
    const run = emulator.state.runs.add({
      workspaceId: 42,
      status: "FAILED",
      tasks: [
        {
          process: "ALIGN",
          tag: "s1",
          status: "FAILED",
          exitStatus: 137,
          stderr: "a\nb\nc\nKilled",
        },
        { process: "ALIGN", tag: "s2", status: "COMPLETED", exitStatus: 0 },
        { process: "QC", status: "FAILED", exitStatus: 1, stderr: ["x", "Error: bad input"] },
      ],
    });
    const from = emulator.requests.length;
    const tasks = await failedTasks(clientOf(emulator), run.id, { stderrLines: 2 });
    expect(tasks.map((t) => [t.name, t.exitStatus, t.stderr])).toEqual([
      ["ALIGN (s1)", 137, ["c", "Killed"]],
      ["QC", 1, ["x", "Error: bad input"]],
    ]);
    // One listing, then one download per failed task.
    expect(servedSince(emulator, from).sort()).toEqual([
      "DownloadWorkflowTaskLog",
      "DownloadWorkflowTaskLog",
      "ListWorkflowTasks",
    ]);
    await expect(failedTasks(clientOf(emulator), run.id, { stderrLines: 0 })).rejects.toThrow(
      "failedTasks: `stderrLines` is a whole number of lines above 0, got 0",
    );
  });
});
