/**
 * Workspace ids past 2^53 are sent exactly by the helpers, as `client.GET` sends them: as
 * numbers they would lose digits (9007199254740993 became …992, another workspace's id).
 */
import { describe, expect, it } from "vitest";
import {
  findComputeEnv,
  findPipeline,
  listRuns,
  NameNotFoundError,
  waitForRun,
} from "../../src/index.js";
import { clientFor } from "../helpers/client.js";
import { useTestServer } from "../helpers/server.js";

const server = await useTestServer((request) => {
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
  ["the helper's workspaceId option", {}, { workspaceId: BIG }],
  ["the client's workspaceId", { workspaceId: BIG }, {}],
])("a workspace id of %s past 2^53 is sent exactly", (_, clientOptions, helperOptions) => {
  const client = () => clientFor(server, clientOptions);

  it("waitForRun", async () => {
    await waitForRun(client(), "w1", helperOptions);
    expect(sent()).toEqual([BIG]);
  });

  it("findComputeEnv and findPipeline", async () => {
    await findComputeEnv(client(), "aws", helperOptions);
    await findPipeline(client(), "hello", helperOptions);
    expect(sent()).toEqual([BIG, BIG]);
  });

  it("listRuns", async () => {
    for await (const _ of listRuns(client(), helperOptions));
    expect(sent()).toEqual([BIG]);
  });

  it("a name not found names the workspace", async () => {
    const error = await findComputeEnv(client(), "gcp", helperOptions).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NameNotFoundError);
    expect(sent()).toEqual([BIG]);
  });
});

it("client.GET with the per-call workspace as digits sends them exactly", async () => {
  await clientFor(server).GET("/workflow/{workflowId}", {
    params: { path: { workflowId: "w1" } },
    workspace: BIG,
  });
  expect(sent()).toEqual([BIG]);
});
