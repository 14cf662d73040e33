/**
 * runSummaries: the runs of a window by completion or by submission, each with status, times,
 * duration, cost and CPU hours, from the runs list and one describe per run reported.
 */
import { expect, test } from "vitest";
import { ConfigurationError, runSummaries } from "../../src/index.js";
import { clientFor } from "../helpers/client.js";
import { collect, failure } from "../helpers/calls.js";
import { useTestServer } from "../helpers/server.js";

const RUNS = [
  // Submitted in the window, completed after it.
  {
    id: "r4",
    runName: "d",
    status: "SUCCEEDED",
    submit: "2024-05-09T23:00:00Z",
    start: "2024-05-09T23:00:00Z",
    complete: "2024-05-10T01:00:00Z",
    duration: 7_200_000,
  },
  // Submitted in the window, still running.
  {
    id: "r3",
    runName: "c",
    status: "RUNNING",
    submit: "2024-05-09T10:00:00Z",
    start: "2024-05-09T10:01:00Z",
  },
  // Submitted before the window, completed in it.
  {
    id: "r2",
    runName: "b",
    status: "SUCCEEDED",
    projectName: "nf-core/rnaseq",
    userName: "alice",
    submit: "2024-05-06T22:00:00Z",
    start: "2024-05-06T22:00:00Z",
    complete: "2024-05-08T02:00:00Z",
    duration: 100_800_000,
  },
  // Completed before the window.
  {
    id: "r1",
    runName: "a",
    status: "FAILED",
    submit: "2024-05-06T01:00:00Z",
    start: "2024-05-06T01:00:00Z",
    complete: "2024-05-06T03:00:00Z",
  },
];

const server = await useTestServer((request) => {
  if (request.pathname === "/workflow") {
    return { body: { workflows: RUNS.map((workflow) => ({ workflow })), totalSize: RUNS.length } };
  }
  const run = RUNS.find((r) => request.pathname === `/workflow/${r.id}`)!;
  return {
    body: {
      workflow: run,
      cost: run.id === "r2" ? 12.5 : null,
      progress: { workflowProgress: { cpuTime: run.id === "r2" ? 27_000_000 : 0, cost: 12.5 } },
    },
  };
});

const WINDOW = { after: "2024-05-07T00:00:00Z", before: "2024-05-10T00:00:00Z" };

test("by completion: the runs that ended in the window, from before it too, not after it; one describe each", async () => {
  const rows = await collect(runSummaries(clientFor(server), WINDOW));
  expect(rows).toEqual([
    {
      workflowId: "r2",
      runName: "b",
      pipeline: "nf-core/rnaseq",
      userName: "alice",
      status: "SUCCEEDED",
      submit: "2024-05-06T22:00:00Z",
      start: "2024-05-06T22:00:00Z",
      complete: "2024-05-08T02:00:00Z",
      durationMs: 100_800_000,
      cost: 12.5,
      cpuHours: 7.5,
    },
  ]);
  // The list reaches back a week before the window (by submission day); only r2 is described.
  expect(server.requests.map((r) => `${r.pathname}?${r.query.get("search") ?? ""}`)).toEqual([
    "/workflow?after:2024-04-30 before:2024-05-10",
    "/workflow/r2?",
  ]);
});

test("by submission: the runs submitted in the window, running ones with their duration so far", async () => {
  const rows = await collect(runSummaries(clientFor(server), { ...WINDOW, by: "submission" }));
  expect(rows.map((r) => [r.workflowId, r.status, r.complete, r.userName])).toEqual([
    ["r4", "SUCCEEDED", "2024-05-10T01:00:00Z", null],
    ["r3", "RUNNING", null, null],
  ]);
  expect(rows[1]!.durationMs).toBeGreaterThan(0);
  expect(server.requests.map((r) => r.pathname)).toEqual([
    "/workflow",
    "/workflow/r4",
    "/workflow/r3",
  ]);
});

test("a window bound that is not a date is a ConfigurationError naming it", async () => {
  const error = await failure(collect(runSummaries(clientFor(server), { after: "last week" })));
  expect(error).toBeInstanceOf(ConfigurationError);
  expect((error as Error).message).toContain(
    'runSummaries: `after` is a Date, an ISO 8601 date-time or "YYYY-MM-DD", got "last week"',
  );
});
