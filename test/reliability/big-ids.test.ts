/**
 * Workspace ids past 2^53 are sent exactly by the helpers, as `client.GET` sends them: as
 * numbers they would lose digits (9007199254740993 became …992, another workspace's id).
 */
import { describe, expect, test } from "vitest";
import {
  cancelRun,
  copyPipeline,
  find,
  launchPipeline,
  listRuns,
  NameNotFoundError,
  relaunchRun,
  waitForRun,
} from "../../src/index.js";
import { clientFor } from "../helpers/client.js";
import { useTestServer } from "../helpers/server.js";

const LAUNCH = {
  pipeline: "https://github.com/acme/hello",
  computeEnv: { id: "ce1", name: "aws" },
  workDir: "s3://work",
  resumeCommitId: "abc",
};

const server = await useTestServer((request) => {
  const call = `${request.method} ${request.pathname}`;
  if (call === "POST /workflow/launch") return { body: { workflowId: "w2" } };
  if (call === "POST /pipelines") return { body: { pipeline: { pipelineId: 8 } } };
  if (call === "POST /labels") return { body: { id: 5, name: "nightly" } };
  if (call === "GET /labels") return { body: { labels: [], totalSize: 0 } };
  if (call === "GET /pipelines/7/launch" || call === "GET /workflow/w1/launch")
    return { body: { launch: LAUNCH } };
  if (call === "GET /compute-envs/ce1")
    return { body: { computeEnv: { id: "ce1", config: { workDir: "s3://work" } } } };
  if (request.pathname === "/compute-envs")
    return { body: { computeEnvs: [{ id: "ce1", name: "aws", status: "AVAILABLE" }] } };
  if (request.pathname === "/pipelines")
    return { body: { pipelines: [{ pipelineId: 7, name: "hello" }], totalSize: 1 } };
  if (request.pathname === "/workflow")
    return { body: { workflows: [{ workflow: { id: "w1" } }], totalSize: 1 } };
  return { body: { workflow: { id: "w1", status: "SUCCEEDED" } } };
});

const BIG = "9007199254740993";
const sent = () => server.requests.map((r) => r.query.get("workspaceId"));

describe.each([
  ["a derived client's workspace", () => clientFor(server).withWorkspace(BIG)],
  ["the client's workspaceId", () => clientFor(server, { workspaceId: BIG })],
])("a workspace id of %s past 2^53 is sent exactly", (_, client) => {
  test("waitForRun", async () => {
    await waitForRun(client(), "w1");
    expect(sent()).toEqual([BIG]);
  });

  test("find.computeEnv and find.pipeline", async () => {
    await find.computeEnv(client(), "aws");
    await find.pipeline(client(), "hello");
    expect(sent()).toEqual([BIG, BIG]);
  });

  test("listRuns", async () => {
    for await (const _ of listRuns(client()));
    expect(sent()).toEqual([BIG]);
  });

  test("launchPipeline (a label created), relaunchRun, cancelRun and copyPipeline", async () => {
    const c = client();
    await launchPipeline(c, "hello", { labels: ["nightly"] });
    await relaunchRun(c, "w1");
    await cancelRun(c, "w1");
    await copyPipeline(c, "hello", { to: BIG });
    expect(server.requests.map((r) => `${r.method} ${r.pathname}`)).toContain("POST /labels");
    expect(server.requests.length).toBeGreaterThan(8);
    expect(new Set(sent())).toEqual(new Set([BIG]));
  });

  test("a name not found names the workspace, as digits", async () => {
    const error = await find.computeEnv(client(), "gcp").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NameNotFoundError);
    expect((error as NameNotFoundError).workspaceId).toBe(BIG);
    expect(sent()).toEqual([BIG]);
  });
});

test("client.GET with the query's workspaceId as digits sends them exactly", async () => {
  await clientFor(server).GET("/workflow/{workflowId}", {
    params: { path: { workflowId: "w1" }, query: { workspaceId: BIG as unknown as number } },
  });
  expect(sent()).toEqual([BIG]);
});
