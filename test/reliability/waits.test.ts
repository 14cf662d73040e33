/**
 * Waits that must neither end on one blip nor go on forever: a 500 or a dropped connection
 * mid-wait is polled through (within `toleranceMs`), a status this release does not list is
 * waited through and logged, an answer without a usable run or status is an
 * UnexpectedAnswerError, and helpers given `200 {}` say which field was missing.
 */
import { describe, expect, test } from "vitest";
import {
  ForbiddenError,
  launchPipeline,
  ServerError,
  UnexpectedAnswerError,
  uploadDataset,
  WaitTimeoutError,
  waitForComputeEnv,
  waitForRun,
} from "../../src/index.js";
import { SCHEMA_VERSION } from "../../generated/version.js";
import type { LogEntry } from "../../src/http/log.js";
import { clientFor } from "../helpers/client.js";
import { useTestServer, type ScriptedResponse } from "../helpers/server.js";
import { failure } from "../helpers/calls.js";

const server = await useTestServer();
const FAST = { pollIntervalMs: 20, maxPollIntervalMs: 20 };
const run = (status: string): ScriptedResponse => ({ body: { workflow: { id: "w1", status } } });

describe("transient failures mid-wait", () => {
  test("a 500 and a dropped connection between polls: the wait goes on and resolves", async () => {
    server.reply(
      run("RUNNING"),
      { status: 500, body: { message: "Oops" } },
      { destroy: true },
      { status: 503 },
      run("SUCCEEDED"),
    );
    const done = await waitForRun(clientFor(server), "w1", FAST);
    expect(done.status).toBe("SUCCEEDED");
    expect(server.requests).toHaveLength(5);
  });

  test("failing for longer than toleranceMs: rejects with the last failure", async () => {
    server.handle(() => ({ status: 500, body: { message: "Down" } }));
    const start = performance.now();
    const error = await failure(waitForRun(clientFor(server), "w1", { ...FAST, toleranceMs: 300 }));
    expect(error).toBeInstanceOf(ServerError);
    expect(error?.message).toBe("Down");
    expect(performance.now() - start).toBeGreaterThanOrEqual(290);
    expect(server.requests.length).toBeGreaterThan(3);
  });

  test("toleranceMs 0: the first failure rejects", async () => {
    server.reply({ status: 500 });
    await expect(waitForRun(clientFor(server), "w1", { ...FAST, toleranceMs: 0 })).rejects.toThrow(
      ServerError,
    );
    expect(server.requests).toHaveLength(1);
  });

  test.each([501, 505, 511])("a %i cannot pass: rejects at once", async (status) => {
    server.reply(run("RUNNING"), { status, body: { message: "Not here" } });
    const error = await failure(waitForRun(clientFor(server), "w1", FAST));
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status, message: "Not here" });
    expect(server.requests).toHaveLength(2);
  });

  test("a 403 is not transient: rejects at once", async () => {
    server.reply(run("RUNNING"), { status: 403 });
    await expect(waitForRun(clientFor(server), "w1", FAST)).rejects.toThrow(ForbiddenError);
    expect(server.requests).toHaveLength(2);
  });
});

describe("answers without a usable run or status", () => {
  test.each([
    ["{}", {}, "workflow", "{}"],
    ["{workflow: null}", { workflow: null }, "workflow", '{"workflow":null}'],
    [
      "a run without status",
      { workflow: { id: "w1" } },
      "workflow.status",
      '{"workflow":{"id":"w1"}}',
    ],
  ])("%s: UnexpectedAnswerError at the first poll", async (_, body, field, sent) => {
    server.handle(() => ({ body }));
    const error = (await failure(
      waitForRun(clientFor(server), "w1", FAST),
    )) as UnexpectedAnswerError;
    expect(error).toBeInstanceOf(UnexpectedAnswerError);
    expect(error.field).toBe(field);
    expect(error.message).toBe(
      `GET /workflow/{workflowId} answered without a usable ${field} (expected a run with a status); the service sent ${sent}. The service or a proxy in front of it answered something else than the API describes: check the base URL (TOWER_API_ENDPOINT) and the server's version.`,
    );
    expect(server.requests).toHaveLength(1);
  });

  test("waitForComputeEnv on {}: UnexpectedAnswerError", async () => {
    server.handle(() => ({ body: {} }));
    const error = (await failure(
      waitForComputeEnv(clientFor(server), "ce1", FAST),
    )) as UnexpectedAnswerError;
    expect(error).toBeInstanceOf(UnexpectedAnswerError);
    expect(error.field).toBe("computeEnv");
  });
});

describe("helpers given 200 {}", () => {
  test("launchPipeline: UnexpectedAnswerError naming workflowId, not a TypeError", async () => {
    server.handle((request) =>
      request.pathname === "/compute-envs"
        ? { body: { computeEnvs: [{ id: "ce1", name: "aws", status: "AVAILABLE" }] } }
        : { body: {} },
    );
    const error = (await failure(
      launchPipeline(clientFor(server), "https://github.com/nextflow-io/hello", {
        computeEnv: "aws",
        workDir: "s3://b/work",
      }),
    )) as UnexpectedAnswerError;
    expect(error).toBeInstanceOf(UnexpectedAnswerError);
    expect([error.operation, error.field]).toEqual(["POST /workflow/launch", "workflowId"]);
  });

  test("uploadDataset: the dataset's id, then the upload's version", async () => {
    server.reply({ body: {} });
    const created = (await failure(
      uploadDataset(clientFor(server), { name: "samples", content: "a,b\n1,2\n" }),
    )) as UnexpectedAnswerError;
    expect(created).toBeInstanceOf(UnexpectedAnswerError);
    expect([created.operation, created.field]).toEqual(["POST /datasets", "dataset.id"]);

    server.reply({ body: { dataset: { id: "d1" } } }, { body: {} });
    const uploaded = (await failure(
      uploadDataset(clientFor(server), { name: "samples", content: "a,b\n1,2\n" }),
    )) as UnexpectedAnswerError;
    expect(uploaded).toBeInstanceOf(UnexpectedAnswerError);
    expect([uploaded.operation, uploaded.field]).toEqual([
      "POST /datasets/{datasetId}/upload",
      "version",
    ]);
  });
});

describe("a status this release does not list (a newer service's)", () => {
  const notices = (entries: LogEntry[]) => entries.filter((e) => e.notice).map((e) => e.notice);

  test("a run: the wait goes on through it, logs it once, and ends on a terminal status", async () => {
    server.reply(run("SUBMITTED"), run("PAUSED"), run("PAUSED"), run("RUNNING"), run("SUCCEEDED"));
    const logged: LogEntry[] = [];
    const seen: string[] = [];
    const done = await waitForRun(clientFor(server, { logger: (e) => logged.push(e) }), "w1", {
      ...FAST,
      onStatus: (r) => seen.push(r.status!),
    });
    expect(done.status).toBe("SUCCEEDED");
    expect(seen).toEqual(["SUBMITTED", "PAUSED", "RUNNING", "SUCCEEDED"]);
    expect(server.requests).toHaveLength(5);
    expect(notices(logged)).toEqual([
      `run w1 reports status "PAUSED", which API ${SCHEMA_VERSION} does not list (SUBMITTED, RUNNING, SUCCEEDED, FAILED, CANCELLED, UNKNOWN): not an end; waiting on until it reports one`,
    ]);
    expect(logged.find((e) => e.notice)).toMatchObject({
      method: "GET",
      path: "/workflow/{workflowId}",
      operationId: "DescribeWorkflow",
      attempt: 0,
    });
  });

  test("a run that stays in it: WaitTimeoutError after maxWaitMs, naming the status", async () => {
    server.handle(() => run("PAUSED"));
    const logged: LogEntry[] = [];
    const error = await failure(
      waitForRun(clientFor(server, { logger: (e) => logged.push(e) }), "w1", {
        ...FAST,
        maxWaitMs: 200,
      }),
    );
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect(error?.message).toContain("PAUSED");
    expect(notices(logged)).toHaveLength(1);
    expect(notices(logged)[0]).toMatch(
      /waiting on until it reports one \(or until maxWaitMs, 200 ms, runs out\)$/,
    );
  });

  test("a compute environment: waited through as CREATING is, then AVAILABLE", async () => {
    const env = (status: string): ScriptedResponse => ({
      body: { computeEnv: { id: "ce1", status } },
    });
    server.reply(env("CREATING"), env("PROVISIONING"), env("AVAILABLE"));
    const logged: LogEntry[] = [];
    const done = await waitForComputeEnv(
      clientFor(server, { logger: (e) => logged.push(e) }),
      "ce1",
      FAST,
    );
    expect(done.status).toBe("AVAILABLE");
    expect(notices(logged)).toEqual([
      expect.stringMatching(
        /^compute environment ce1 reports status "PROVISIONING", which API [\d.]+ does not list \(CREATING, AVAILABLE, /,
      ),
    ]);
  });
});
