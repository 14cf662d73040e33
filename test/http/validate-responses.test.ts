import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, expect, test, vi } from "vitest";
import {
  ConfigurationError,
  createSeqeraClient,
  ResponseValidationError,
  UnexpectedAnswerError,
  type SeqeraClientOptions,
} from "../../src/index.js";
import { type LogEntry } from "../../src/http/log.js";
import { startServer, type TestServer } from "../helpers/server.js";
import { RECORDED } from "../helpers/schema.js";

const TOKEN = "validate-responses-token-0123456789";
let server: TestServer;
let recorded: any;
beforeAll(async () => {
  server = await startServer();
  // A describe-run answer recorded from the service (manifest: GET /workflow/{workflowId}).
  recorded = JSON.parse(
    await readFile(
      path.join(RECORDED, "tower-cli/get_workflow_workflowId_200_4ace08d8f1db.json"),
      "utf8",
    ),
  );
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const clientWith = (options: SeqeraClientOptions) =>
  createSeqeraClient({ baseUrl: server.url, token: TOKEN, env: {}, rateLimit: false, ...options });
const describeRun = (client: ReturnType<typeof clientWith>) =>
  client.GET("/workflow/{workflowId}", { params: { path: { workflowId: "abc" } } });

/** The recorded answer, drifted: a string field turned number, and the token echoed in another. */
function drifted() {
  const body = structuredClone(recorded);
  body.workflow.stats.computeTimeFmt = 5;
  body.workflow.status = `weird ${TOKEN}`;
  return body;
}

test("off by default: a drifted answer is returned as it came", async () => {
  server.reply({ body: drifted() });
  const { workflow } = await describeRun(clientWith({}));
  expect(workflow?.stats?.computeTimeFmt).toBe(5);
});

test("a real answer passes in throw mode", async () => {
  server.reply({ body: recorded });
  const { workflow } = await describeRun(clientWith({ validateResponses: "throw" }));
  expect(workflow?.id).toBe(recorded.workflow.id);
});

test('"throw": a typed error naming the operation, the property paths and the values, never the token', async () => {
  server.reply({ body: drifted() });
  const error = await describeRun(clientWith({ validateResponses: "throw" })).catch((e) => e);
  expect(error).toBeInstanceOf(ResponseValidationError);
  expect(error.status).toBe(200);
  expect(error.operationId).toBe("DescribeWorkflow");
  expect(error.message).toMatch(
    /^GET \/workflow\/\{workflowId\} \(DescribeWorkflow\) answered outside its schema: /,
  );
  expect(error.message).toContain("/workflow/stats/computeTimeFmt must be string or null, got 5");
  expect(error.issues.map((i: { path: string }) => i.path)).toEqual(
    expect.arrayContaining(["/workflow/stats/computeTimeFmt", "/workflow/status"]),
  );
  expect(JSON.stringify(error.issues) + error.message).not.toContain(TOKEN.slice(0, 8));
  // One shape for an answer the client cannot use: the helpers' catch takes this one too.
  expect(error).toBeInstanceOf(UnexpectedAnswerError);
  expect(error.operation).toBe("GET /workflow/{workflowId}");
  expect(error.field).toBe(error.issues[0].path.slice(1).replaceAll("/", "."));
  expect(error.answer).toEqual(drifted());
  expect(Object.keys(error)).not.toContain("answer");
  // The answer was a success: it is not retried.
  expect(server.requests).toHaveLength(1);
});

test('"warn": the call succeeds and the attempt\'s log entry carries the issues', async () => {
  server.reply({ body: drifted() });
  const entries: LogEntry[] = [];
  const { workflow } = await describeRun(
    clientWith({ validateResponses: "warn", logger: (e) => entries.push(e) }),
  );
  expect(workflow?.stats?.computeTimeFmt).toBe(5);
  expect(entries).toHaveLength(1);
  expect(entries[0]!.validation).toContainEqual({
    path: "/workflow/stats/computeTimeFmt",
    message: "must be string or null",
    value: 5,
  });
});

test('"warn" without a logger: a process warning', async () => {
  server.reply({ body: drifted() });
  const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
  try {
    await describeRun(clientWith({ validateResponses: "warn" }));
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatch(/DescribeWorkflow.*computeTimeFmt/);
    expect(warn.mock.calls[0]![1]).toBe("SeqeraResponseValidation");
  } finally {
    warn.mockRestore();
  }
});

test("only JSON answers are checked: a text download is not", async () => {
  server.reply({ body: "line 1\n", headers: { "content-type": "text/plain" } });
  const client = clientWith({ validateResponses: "throw" });
  await expect(
    client.GET("/workflow/{workflowId}/download", {
      params: { path: { workflowId: "abc" }, query: { fileName: "nf.log" } },
    }),
  ).resolves.toBe("line 1\n");
});

test("a bad value is a ConfigurationError", () => {
  expect(() => clientWith({ validateResponses: "yes" as never })).toThrow(ConfigurationError);
  expect(() => clientWith({ validateResponses: "yes" as never })).toThrow(
    'validateResponses must be "off", "warn" or "throw", got "yes".',
  );
});
