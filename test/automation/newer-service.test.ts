/**
 * Every helper and every lifecycle command against "the next release" (test/helpers/next-release.ts):
 * the pinned schema plus a value on every enum, a property on every object and an operation, as
 * Seqera's versioning policy allows a release to add without breaking clients.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import {
  checkCompatibility,
  copyPipeline,
  createSeqeraClient,
  downloadRunLog,
  failedTasks,
  find,
  followRunLog,
  launchPipeline,
  listRuns,
  listWorkspaces,
  relaunchRun,
  cancelRun,
  SeqeraApiError,
  taskLog,
  toComputeEnvRequest,
  toCredentialsRequest,
  toLabelRequest,
  uploadDataset,
  waitForComputeEnv,
  waitForRun,
  watchRuns,
} from "../../src/index.js";
import { SCHEMA_VERSION } from "../../generated/version.js";
import type { LogEntry } from "../../src/http/log.js";
import { EXIT } from "../../src/cli/exit-codes.js";
import type { Emulator } from "../../src/testing/index.js";
import { runCli, sharedBuild, towerEnv, type BuiltCli } from "../cli/cli.js";
import {
  ADDED_FIELD,
  ADDED_OPERATION,
  NEXT_VERSION,
  startNextRelease,
  type NextReleaseServer,
} from "../helpers/next-release.js";
import { seededEmulator } from "./setup.js";

let emulator: Emulator;
let next: NextReleaseServer;
let cli: BuiltCli;

beforeAll(async () => {
  emulator = await seededEmulator({
    computeEnvs: [
      { id: "ce-aws", name: "aws", workspaceId: 42, primary: true, workDir: "s3://w" },
      { id: "ce-dev", name: "aws", workspaceId: 43, primary: true, workDir: "s3://d" },
    ],
    credentials: [{ name: "aws-keys", workspaceId: 42 }],
    labels: [{ name: "nightly", workspaceId: 42 }],
    secrets: [{ name: "TOKEN", workspaceId: 42 }],
    datasets: [{ name: "samples", workspaceId: 42, versions: [{ content: "a,b\n1,2\n" }] }],
    pipelines: [
      {
        name: "rnaseq",
        workspaceId: 42,
        repository: "https://github.com/nf-core/rnaseq",
        launch: { computeEnvId: "ce-aws", revision: "3.14.0" },
      },
    ],
    runs: [
      {
        id: "run1failed",
        workspaceId: 42,
        status: "FAILED",
        launch: { pipeline: "https://github.com/nf-core/rnaseq", computeEnvId: "ce-aws" },
        tasks: [
          { process: "FASTQC", status: "COMPLETED", stdout: "ok" },
          { process: "STAR", status: "FAILED", exitStatus: 137, stderr: "Killed" },
        ],
      },
    ],
  });
  [next, cli] = await Promise.all([startNextRelease(emulator), sharedBuild()]);
});
afterAll(async () => {
  await next?.close();
  await emulator?.close();
});
afterEach(() => next.clearRewrites());

const logged: LogEntry[] = [];
const client = (workspace = "acme/prod") =>
  createSeqeraClient({
    baseUrl: next.url,
    token: emulator.token,
    workspaceId: workspace,
    rateLimit: false,
    env: {},
    logger: (entry) => logged.push(entry),
  });
const FAST = { pollIntervalMs: 1, maxPollIntervalMs: 5 };
const RUN = /^\/workflow\/[^/]+$/;

test("the fixture is the pinned release with values, properties and an operation added", () => {
  // Every string enum and every object schema of the release (68 and 445 in 1.187.0).
  expect(next.release.counts.enums).toBeGreaterThan(20);
  expect(next.release.counts.objects).toBeGreaterThan(100);
  expect(next.release.enumValue("WorkflowStatus")).toBe("ADDED_IN_NEXT_RELEASE");
  expect((next.release.doc.info as { version: string }).version).toBe(NEXT_VERSION);
});

describe("waits: a status the pinned release does not list is not an end", () => {
  test("waitForRun polls through it, logs it, ends SUCCEEDED", async () => {
    const added = next.release.enumValue("WorkflowStatus");
    const c = client();
    const { workflowId } = await launchPipeline(c, "rnaseq");
    next.rewrite("GET", RUN, (body, { count }) => {
      const workflow = body.workflow as { status: string };
      if (count < 3) workflow.status = added;
      else if (count === 3) emulator.state.runs.finish(workflowId, "SUCCEEDED");
    });
    logged.length = 0;
    const seen: string[] = [];
    const run = await waitForRun(c, workflowId, { ...FAST, onStatus: (r) => seen.push(r.status!) });
    expect(run.status).toBe("SUCCEEDED");
    expect(seen[0]).toBe(added);
    expect(seen.at(-1)).toBe("SUCCEEDED");
    expect(logged.filter((e) => e.notice).map((e) => e.notice)).toEqual([
      `run ${workflowId} reports status "${added}", which API ${SCHEMA_VERSION} does not list (SUBMITTED, RUNNING, SUCCEEDED, FAILED, CANCELLED, UNKNOWN): not an end; waiting on until it reports one`,
    ]);
  });

  test("watchRuns({ untilEnded }) watches through it, ends once the run ended", async () => {
    const added = next.release.enumValue("WorkflowStatus");
    for (const run of emulator.state.runs.list(42)) {
      if (run.status === "SUBMITTED" || run.status === "RUNNING") {
        emulator.state.runs.finish(run.id, "SUCCEEDED");
      }
    }
    const c = client();
    const { workflowId } = await launchPipeline(c, "rnaseq");
    // Listed twice with the added status, then it ends: it leaves the list and is described.
    next.rewrite("GET", /^\/workflow$/, (body, { count }) => {
      for (const item of body.workflows as { workflow: { status: string } }[]) {
        item.workflow.status = added;
      }
      if (count === 1) emulator.state.runs.finish(workflowId, "SUCCEEDED");
    });
    const changes: string[] = [];
    logged.length = 0;
    for await (const { change, run } of watchRuns(c, { untilEnded: true, ...FAST })) {
      changes.push(`${change} ${run.status}`);
    }
    expect(changes).toEqual([`seen ${added}`, "status SUCCEEDED"]);
    // Said once to the logger, as a wait says it.
    expect(logged.filter((e) => e.notice).map((e) => `${e.operationId}: ${e.notice}`)).toEqual([
      `ListWorkflows: run ${workflowId} reports status "${added}", which API ${SCHEMA_VERSION} does not list (SUBMITTED, RUNNING, SUCCEEDED, FAILED, CANCELLED, UNKNOWN): not an end; waiting on until it reports one`,
    ]);
  });

  test("waitForComputeEnv polls through it, ends AVAILABLE", async () => {
    const added = next.release.enumValue("ComputeEnv.Status");
    next.rewrite("GET", /^\/compute-envs\/ce-aws$/, (body, { count }) => {
      if (count < 2) (body.computeEnv as { status: string }).status = added;
    });
    const env = await waitForComputeEnv(client(), "ce-aws", FAST);
    expect(env.status).toBe("AVAILABLE");
  });
});

describe("lists and name lookups keep items with added values and fields", () => {
  test("listRuns: every run, with its added status and field", async () => {
    const added = next.release.enumValue("WorkflowStatus");
    next.rewrite("GET", /^\/workflow$/, (body) => {
      for (const item of body.workflows as { workflow: { status: string } }[]) {
        item.workflow.status = added;
      }
    });
    const runs = [];
    for await (const run of listRuns(client())) runs.push(run);
    expect(runs.length).toBe(emulator.state.runs.list(42).length);
    expect(runs.every((r) => r.status === added && ADDED_FIELD in r)).toBe(true);
  });

  test("every finder finds its item; credentials with an added provider too", async () => {
    next.rewrite("GET", /^\/credentials$/, (body) => {
      for (const c of body.credentials as { provider: string }[]) {
        c.provider = next.release.enumValue("Credentials.provider");
      }
    });
    const c = client();
    expect((await find.pipeline(c, "rnaseq")).name).toBe("rnaseq");
    expect((await find.computeEnv(c, "aws")).id).toBe("ce-aws");
    expect((await find.primaryComputeEnv(c)).id).toBe("ce-aws");
    const credentials = await find.credentials(c, "aws-keys");
    expect(credentials.provider).toBe("added_in_next_release");
    expect((await find.label(c, "nightly")).name).toBe("nightly");
    expect((await find.secret(c, "TOKEN")).name).toBe("TOKEN");
    expect((await find.dataset(c, "samples")).name).toBe("samples");
    expect((await find.workspace(c, "acme/dev")).workspaceId).toBe("43");
    expect((await listWorkspaces(c)).length).toBeGreaterThanOrEqual(3);
    // Converted to requests: the added field is not one the pinned request knows, and is left out.
    expect(toLabelRequest(await find.label(c, "nightly"))).not.toHaveProperty(ADDED_FIELD);
    // A provider this release does not list is sent back as read.
    expect(toCredentialsRequest(credentials, { discriminator: "aws" } as never)).toMatchObject({
      credentials: { name: "aws-keys", provider: "added_in_next_release" },
    });
    const { computeEnv } = await c.GET("/compute-envs/{computeEnvId}", {
      params: { path: { computeEnvId: "ce-aws" } },
    });
    expect(toComputeEnvRequest(computeEnv!)).toMatchObject({ computeEnv: { name: "aws" } });
  });
});

describe("launch, relaunch, copy, cancel, logs, datasets", () => {
  test("a launch sends back the saved launch's added setting; a relaunch too", async () => {
    const c = client();
    const before = next.received.length;
    const { workflowId } = await launchPipeline(c, "rnaseq");
    const launch = next.received.slice(before).find((r) => r.call === "POST /workflow/launch");
    expect((launch?.body as { launch: Record<string, unknown> }).launch[ADDED_FIELD]).toBe(
      "a field of the next release",
    );
    emulator.state.runs.finish(workflowId, "FAILED");
    const mark = next.received.length;
    await relaunchRun(c, workflowId, { resume: false });
    const relaunch = next.received.slice(mark).find((r) => r.call === "POST /workflow/launch");
    expect((relaunch?.body as { launch: Record<string, unknown> }).launch[ADDED_FIELD]).toBe(
      "a field of the next release",
    );
  });

  test("copyPipeline carries the added setting to the copy", async () => {
    const mark = next.received.length;
    const copied = await copyPipeline(client(), "rnaseq", { to: "acme/dev", name: "rnaseq-copy" });
    expect(copied.computeEnvId).toBe("ce-dev");
    const created = next.received.slice(mark).find((r) => r.call === "POST /pipelines");
    expect((created?.body as { launch: Record<string, unknown> }).launch[ADDED_FIELD]).toBe(
      "a field of the next release",
    );
  });

  test("failed tasks, logs, cancel and an upload, with an added task status beside", async () => {
    next.rewrite("GET", /^\/workflow\/run1failed\/tasks$/, (body) => {
      const [first] = body.tasks as { task: { status: string } }[];
      first!.task.status = next.release.enumValue("TaskStatus");
    });
    const c = client();
    const tasks = await failedTasks(c, "run1failed");
    expect(tasks.map((t) => t.process)).toEqual(["STAR"]);
    expect(await taskLog(c, "run1failed", tasks[0]!.taskId!)).toBeDefined();
    expect(typeof (await downloadRunLog(c, "run1failed"))).toBe("string");
    const lines: string[] = [];
    for await (const line of followRunLog(c, "run1failed", FAST)) lines.push(line);
    const { workflowId } = await launchPipeline(c, "rnaseq");
    await cancelRun(c, workflowId);
    expect(emulator.state.runs.get(workflowId)?.status).toBe("CANCELLED");
    const uploaded = await uploadDataset(c, { name: "more", content: "x,y\n1,2\n" });
    expect(uploaded.version).toBe(1);
  });
});

describe("what else the next release may do", () => {
  test("an error status the client has no class for: SeqeraApiError with the service's message", async () => {
    next.failNext("GET", /^\/workflow\/[^/]+$/, 422, "Run is archived - Error ID: 7Yx2");
    const failure = await waitForRun(client(), "run1failed", FAST).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(SeqeraApiError);
    expect(failure).toMatchObject({ status: 422, message: "Run is archived", errorId: "7Yx2" });
  });

  test("the added operation is reachable untyped; the server's newer release is compatible", async () => {
    const c = client();
    const answer = (await c.request(ADDED_OPERATION.method, ADDED_OPERATION.path)) as {
      reports: unknown[];
    };
    expect(answer.reports).toHaveLength(1);
    const report = await checkCompatibility(c);
    expect(report).toMatchObject({ compatible: true });
  });
});

describe("the lifecycle commands against it", () => {
  const seqera = (args: string[]) =>
    runCli(cli.main, args, {
      env: towerEnv({ url: next.url, token: emulator.token }, "acme/prod"),
    });

  test("launch, wait --verbose through an added status, relaunch, cancel, logs, datasets", async () => {
    const launched = await seqera(["launch", "rnaseq"]);
    expect(launched.code, launched.stderr).toBe(EXIT.ok);
    const { workflowId } = JSON.parse(launched.stdout) as { workflowId: string };
    const added = next.release.enumValue("WorkflowStatus");
    next.rewrite("GET", RUN, (body, { count }) => {
      if (count < 2) (body.workflow as { status: string }).status = added;
      else if (count === 2) emulator.state.runs.finish(workflowId, "SUCCEEDED");
    });
    const waited = await seqera(["wait", workflowId, "--verbose", "--poll-interval", "10ms"]);
    expect(waited.code, waited.stderr).toBe(EXIT.ok);
    expect(waited.stderr).toContain(
      `seqera-api: GET /workflow/{workflowId} (DescribeWorkflow): run ${workflowId} reports status "${added}", which API ${SCHEMA_VERSION} does not list`,
    );
    expect(JSON.parse(waited.stdout)).toMatchObject({ status: "SUCCEEDED" });
    next.clearRewrites();

    const relaunched = await seqera(["relaunch", workflowId, "--no-resume"]);
    expect(relaunched.code, relaunched.stderr).toBe(EXIT.ok);
    const again = (JSON.parse(relaunched.stdout) as { workflowId: string }).workflowId;
    expect((await seqera(["cancel", again])).code).toBe(EXIT.ok);
    expect((await seqera(["logs", "run1failed"])).code).toBe(EXIT.ok);
    expect((await seqera(["ListWorkflows"])).code).toBe(EXIT.ok);
  });
});

test("an exhaustive switch over a run's status reaches its default branch with an added status", async () => {
  const { nextStep } = await import("../examples/status-switch.js");
  const c = client();
  const { workflowId } = await launchPipeline(c, "rnaseq");
  next.rewrite("GET", RUN, (body) => {
    (body.workflow as { status: string }).status = next.release.enumValue("WorkflowStatus");
  });
  const { workflow } = await c.GET("/workflow/{workflowId}", {
    params: { path: { workflowId } },
  });
  expect(workflow!.status).toBe("ADDED_IN_NEXT_RELEASE");
  expect(nextStep(workflow!)).toBe("wait");
  emulator.state.runs.finish(workflowId, "SUCCEEDED");
  next.clearRewrites();
  const { workflow: done } = await c.GET("/workflow/{workflowId}", {
    params: { path: { workflowId } },
  });
  expect(nextStep(done!)).toBe("report");
});
