/**
 * The ids the types say are present (a create operation's new id, a family's listed ids) are
 * checked as the answer arrives: an answer without one fails the call with UnexpectedAnswerError
 * naming the operation and the field, rather than handing `undefined` on.
 */
import { describe, expect, test } from "vitest";
import { UnexpectedAnswerError } from "../../src/index.js";
import { clientFor } from "../helpers/client.js";
import { collect, failure } from "../helpers/calls.js";
import { useTestServer } from "../helpers/server.js";

const server = await useTestServer();
// Untyped, as the compute config's shape differs between release lines; checked all the same.
const createComputeEnv = () =>
  clientFor(server).request("POST", "/compute-envs", { body: { computeEnv: { name: "ce" } } });

async function unexpected(call: Promise<unknown>) {
  const error = await failure<UnexpectedAnswerError>(call);
  expect(error).toBeInstanceOf(UnexpectedAnswerError);
  return { operation: error.operation, field: error.field, message: error.message };
}

describe("a create operation's new id", () => {
  test("present: handed on as sent", async () => {
    server.reply({ body: { computeEnvId: "ce-1" } });
    await expect(createComputeEnv()).resolves.toEqual({ computeEnvId: "ce-1" });
  });

  test("null or absent: UnexpectedAnswerError naming the operation and the field, not retried", async () => {
    server.reply({ body: { computeEnvId: null } }, { body: {} });
    for (let i = 0; i < 2; i++) {
      expect(await unexpected(createComputeEnv())).toMatchObject({
        operation: "POST /compute-envs",
        field: "computeEnvId",
        message: expect.stringContaining(
          "POST /compute-envs answered without a usable computeEnvId (expected the id of what it created)",
        ),
      });
    }
    expect(server.requests).toHaveLength(2);
  });

  test("nested: the object that holds it missing names the id's whole path", async () => {
    server.reply({ body: {} }, { body: { pipeline: { name: "rnaseq" } } });
    const create = () =>
      clientFor(server).POST("/pipelines", {
        body: { name: "rnaseq", launch: { computeEnvId: "ce", pipeline: "p" } },
      });
    for (let i = 0; i < 2; i++) {
      expect(await unexpected(create())).toMatchObject({ field: "pipeline.pipelineId" });
    }
  });

  test("the untyped call is checked too; another parseAs than json is not read", async () => {
    server.reply({ body: { actionId: null } }, { body: { actionId: null } });
    const client = clientFor(server);
    expect(await unexpected(client.request("POST", "/actions", { body: {} }))).toMatchObject({
      operation: "POST /actions",
      field: "actionId",
    });
    const text = client.POST("/actions", {
      body: { name: "a", source: "github", launch: { computeEnvId: "ce", pipeline: "p" } },
      parseAs: "text",
    });
    await expect(text).resolves.toBe('{"actionId":null}');
  });
});

describe("a family's listed ids", () => {
  const workflows = (...ids: (string | null)[]) => ({
    body: {
      workflows: ids.map((id) => ({ workflow: { id, runName: "r" } })),
      totalSize: ids.length,
    },
  });

  test("present: the items as sent", async () => {
    server.reply(workflows("w1", "w2"));
    const items = await collect(clientFor(server).paginate("/workflow"));
    expect(items.map((item) => item.workflow.id)).toEqual(["w1", "w2"]);
  });

  test("one without its id: the page fails, naming the list's field", async () => {
    server.reply(workflows("w1", null), workflows("w1", null));
    const client = clientFor(server);
    for (const call of [collect(client.paginate("/workflow")), client.GET("/workflow")]) {
      expect(await unexpected(call)).toMatchObject({
        operation: "GET /workflow",
        field: "workflows[].workflow.id",
      });
    }
  });
});
