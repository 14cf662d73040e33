/**
 * Ids a helper hands on are present: the service always sends them on what it lists, so a
 * missing one is its broken answer, refused where it arrives (not as a TypeError later in the
 * next call). The type-level side (no `!` between helpers) is in automation.test-d.ts.
 */
import { expect, test } from "vitest";
import { UnexpectedAnswerError, failedTasks, find, listRuns } from "../../src/index.js";
import { clientFor } from "../helpers/client.js";
import { collect, failure } from "../helpers/calls.js";
import { useTestServer } from "../helpers/server.js";

const server = await useTestServer();

test("a listed run without an id is an UnexpectedAnswerError naming the call and the field", async () => {
  server.reply({
    body: { workflows: [{ workflow: { runName: "a", status: "FAILED" } }], totalSize: 1 },
  });
  const error = await failure<UnexpectedAnswerError>(collect(listRuns(clientFor(server))));
  expect(error).toBeInstanceOf(UnexpectedAnswerError);
  expect(error.operation).toBe("GET /workflow");
  expect(error.field).toBe("workflows[].workflow.id");
  expect(error.message).toContain('"runName":"a"');
});

test("a found pipeline without a pipelineId is refused; with one, it is handed on as it came", async () => {
  const client = clientFor(server);
  server.reply({ body: { pipelines: [{ name: "rnaseq" }], totalSize: 1 } });
  const error = await failure<UnexpectedAnswerError>(find.pipeline(client, "rnaseq"));
  expect(error.field).toBe("pipelines[].pipelineId");
  server.reply({ body: { pipelines: [{ name: "sarek", pipelineId: 7 }], totalSize: 1 } });
  await expect(find.pipeline(client, "sarek")).resolves.toMatchObject({ pipelineId: 7 });
});

test("a failed task without an id is refused", async () => {
  server.reply({
    body: { tasks: [{ task: { taskId: 1, status: "FAILED", process: "p" } }], total: 1 },
  });
  const error = await failure<UnexpectedAnswerError>(failedTasks(clientFor(server), "w1"));
  expect(error.field).toBe("tasks[].task.id");
});
