import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startEmulator, type Emulator } from "seqera-api-client/testing";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { cancelRun } from "./cancel-run.js";
import { describeRun } from "./describe-run.js";
import { failedRunsPerWorkspace } from "./derived-clients.js";
import { downloadLogs } from "./download-logs.js";
import { connectToEnterprise } from "./enterprise.js";
import { listRunsOrExplain } from "./handle-errors.js";
import { launchPipeline } from "./launch-pipeline.js";
import { failedRuns } from "./list-workflows.js";
import { relaunchAt } from "./relaunch-at.js";
import { worker } from "./shared-rate-limit.js";
import { startRedis } from "../limits/processes.js";
import { stubTwVariables } from "./tw-variables.js";

// The README's examples, run as a user would: configured by the tw CLI's variables only.
let emulator: Emulator;
let dir: string;

beforeAll(async () => {
  // Workspace 42 and the compute env the launch example names.
  emulator = await startEmulator({
    seed: { computeEnvs: [{ id: "ce-1", name: "ce-1", workspaceId: 42 }] },
  });
  dir = await mkdtemp(path.join(tmpdir(), "seqera-examples-"));
  stubTwVariables(emulator, "42");
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await emulator.close();
  await rm(dir, { recursive: true, force: true });
});

const seen = (operationId: string) =>
  emulator.requests.filter((r) => r.operationId === operationId);

test("describe a run, and get the raw Response", async () => {
  const id = emulator.state.runs.add({
    status: "RUNNING",
    workspaceId: 42,
  }).id;
  const described = await describeRun(id);
  expect(described).toMatchObject({
    status: "RUNNING",
    via: `${emulator.url}/service-info`,
  });
  expect(described.apiVersion).toEqual(expect.any(String));
});

test("derived clients: one per workspace, the names looked up once", async () => {
  emulator.state.workspaces.add({ org: "acme", name: "lab", id: 77 });
  const failed = emulator.state.runs.add({ status: "FAILED", workspaceId: 77 }).id;
  emulator.state.runs.add({ status: "SUCCEEDED", workspaceId: 77 });
  emulator.state.pipelines.add({ name: "rnaseq", workspaceId: 77 });
  const from = emulator.requests.length;
  const result = await failedRunsPerWorkspace(["acme/lab"]);
  expect(result.failed).toEqual({ "acme/lab": [failed] });
  expect(result.rnaseqId).toEqual(expect.any(Number));
  expect(result.workspaceId).toBe("42"); // TOWER_WORKSPACE_ID, the client's own
  const sent = emulator.requests.slice(from);
  expect(sent.filter((r) => r.operationId === "ListWorkspacesUser")).toHaveLength(1);
  expect(
    sent
      .filter((r) => r.operationId !== "UserInfo" && r.operationId !== "ListWorkspacesUser")
      .map((r) => new URLSearchParams(r.search).get("workspaceId")),
  ).toEqual(["77", "77"]);
});

test("list workflows with pagination", async () => {
  const runs = ["FAILED", "SUCCEEDED", "FAILED", "RUNNING", "FAILED"] as const;
  for (const status of runs) emulator.state.runs.add({ status, workspaceId: 42 });
  const before = seen("ListWorkflows").length;
  // Newest first: the last three added are FAILED, RUNNING, FAILED.
  await expect(failedRuns(3)).resolves.toHaveLength(2);
  const pages = seen("ListWorkflows").slice(before);
  expect(pages.map((r) => r.search)).toEqual(["max=3&offset=0&workspaceId=42"]);
});

test("launch a pipeline", async () => {
  const id = await launchPipeline("nf-core/rnaseq", "ce-1");
  expect(emulator.state.runs.get(id)).toBeDefined();
  expect(seen("CreateWorkflowLaunch").at(-1)).toMatchObject({
    status: 200,
    search: "workspaceId=42",
    body: { launch: { pipeline: "nf-core/rnaseq", computeEnvId: "ce-1" } },
  });
});

test("relaunch at another revision: an answer's fields, nulls included, go into the request", async () => {
  const first = await launchPipeline("nf-core/rnaseq", "ce-1");
  const again = await relaunchAt(first, "3.14.0");
  expect(emulator.state.runs.get(again)).toMatchObject({ pipeline: "nf-core/rnaseq" });
  const sent = seen("CreateWorkflowLaunch").at(-1)!;
  expect(sent).toMatchObject({
    status: 200,
    body: {
      launch: {
        pipeline: "nf-core/rnaseq",
        computeEnvId: "ce-1",
        workDir: "s3://my-bucket/work",
        revision: "3.14.0",
      },
    },
  });
  // The first launch set no profiles: the saved launch answers null, sent back as it is.
  expect((sent.body as { launch: object }).launch).toHaveProperty("configProfiles", null);
});

test("cancel a run", async () => {
  const running = emulator.state.runs.add({
    status: "RUNNING",
    workspaceId: 42,
  }).id;
  const done = emulator.state.runs.add({
    status: "SUCCEEDED",
    workspaceId: 42,
  }).id;
  await expect(cancelRun(running)).resolves.toBe(true);
  await expect(cancelRun(done)).resolves.toBe(false);
  expect(emulator.state.runs.get(running)?.status).toBe("CANCELLED");
  expect(seen("CancelWorkflow")).toHaveLength(1);
});

test("download logs", async () => {
  const id = emulator.state.runs.add({
    status: "SUCCEEDED",
    workspaceId: 42,
  }).id;
  emulator.setHandler("DownloadWorkflowLog", () => ({
    status: 200,
    headers: { "content-type": "text/plain" },
    body: "N E X T F L O W\n",
  }));
  emulator.setHandler("GetWorkflowLog", () => ({
    status: 200,
    body: {
      log: { entries: ["line 1", "line 2"], truncated: false, pending: false },
    },
  }));
  const file = path.join(dir, "nextflow.log");
  await expect(downloadLogs(id, file)).resolves.toEqual(["line 1", "line 2"]);
  await expect(readFile(file, "utf8")).resolves.toBe("N E X T F L O W\n");
  emulator.clearHandlers();
});

test("handle an error with its Error ID", async () => {
  const answer = await listRunsOrExplain(500);
  expect(answer).toMatch(/^rejected: .+ \(Error ID [A-Za-z0-9]+\)$/);
  expect(answer).not.toContain(" - Error ID:");
  await expect(listRunsOrExplain(10)).resolves.toMatch(/^\d+ runs$/);
});

test("point at an Enterprise install", async () => {
  const enterprise = await startEmulator({
    basePath: "/api",
    tokens: [emulator.token],
  });
  try {
    enterprise.setHandler("Info", () => ({
      status: 200,
      body: { serviceInfo: { apiVersion: "1.100.0", version: "24.1.0" } },
    }));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const report = await connectToEnterprise(enterprise.url);
    expect(report).toMatchObject({
      serverApiVersion: "1.100.0",
      compatible: false,
      serverLine: "1.100.x",
    });
    expect(report.message).toContain("npm install --save-exact seqera-api-client@1.100");
    expect(warn).toHaveBeenCalledWith(report.message);
    // That emulator serves the API under /api only: the client kept the prefix.
    expect(enterprise.requests.map((r) => [r.operationId, r.status])).toEqual([["Info", 200]]);
  } finally {
    await enterprise.close();
  }
});

test("share a token's rate limit across workers", async () => {
  const redis = await startRedis();
  try {
    const ids = Array.from(
      { length: 15 },
      () => emulator.state.runs.add({ status: "RUNNING", workspaceId: 42 }).id,
    );
    // A token of their own: calls of the other tests still count in the emulator's window.
    const token = `shared-${Date.now()}`;
    emulator.addToken(token);
    vi.stubEnv("TOWER_ACCESS_TOKEN", token);
    const before = emulator.requests.length;
    // Three workers, 45 calls on one token: the emulator refuses a 21st call in any second.
    const statuses = await Promise.all([1, 2, 3].map(() => worker(ids, redis.url)));
    expect(statuses.flat()).toEqual(Array(45).fill("RUNNING"));
    expect(emulator.requests.slice(before).map((r) => r.status)).toEqual(Array(45).fill(200));
  } finally {
    vi.stubEnv("TOWER_ACCESS_TOKEN", emulator.token);
    await redis.stop();
  }
});
