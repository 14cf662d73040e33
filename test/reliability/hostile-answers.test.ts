/**
 * Answers and options built to freeze or crash the client: an error message of 64,000 spaces
 * (the Error ID parse was quadratic), JSON nested 100,000 deep, a CR/LF in a header value.
 */
import { describe, expect, test } from "vitest";
import {
  BadRequestError,
  ConfigurationError,
  SeqeraApiError,
  ServerError,
} from "../../src/index.js";
import { clientFor } from "../helpers/client.js";
import { useTestServer } from "../helpers/server.js";
import { failure } from "../helpers/calls.js";

const server = await useTestServer();
const describeWorkflow = (init = {}, options = {}) =>
  clientFor(server, options).GET("/workflow/{workflowId}", {
    params: { path: { workflowId: "w1" } },
    ...init,
  });

describe("the Error ID parse is linear", () => {
  test("a 400 whose message is 64,000 spaces answers at once", async () => {
    server.reply({ status: 400, body: { message: `x${" ".repeat(64_000)}y` } });
    const start = performance.now();
    const error = await failure(describeWorkflow());
    expect(performance.now() - start).toBeLessThan(1000);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).errorId).toBeUndefined();
  });

  test("spaces before and around the Error ID: still linear, still parsed", async () => {
    // Within the 64 KiB of an error body that is read.
    const message = `Oops${" ".repeat(30_000)}-${" ".repeat(30_000)}Error ID:  abc123 `;
    server.reply({ status: 503, body: { message } });
    const start = performance.now();
    const error = (await failure(describeWorkflow())) as ServerError;
    expect(performance.now() - start).toBeLessThan(1000);
    expect(error).toBeInstanceOf(ServerError);
    expect([error.message, error.errorId]).toEqual(["Oops", "abc123"]);
  });

  test.each([
    ["Bad name - Error ID: 54apnFENQxbvCr23JaIjLb", "Bad name", "54apnFENQxbvCr23JaIjLb"],
    ["Bad name -Error ID:x", "Bad name", "x"],
    ["- Error ID: x", "", "x"],
    ["Bad - Error ID: two words", "Bad - Error ID: two words", undefined],
    ["Bad Error ID: x", "Bad Error ID: x", undefined],
    ["a - Error ID: b - Error ID: c", "a - Error ID: b", "c"],
  ])("%j: message %j, errorId %j", async (said, message, errorId) => {
    server.reply({ status: 400, body: { message: said } });
    const error = (await failure(describeWorkflow())) as BadRequestError;
    expect(error.message || "").toBe(message || "Bad request: GET /workflow/w1");
    expect(error.errorId).toBe(errorId);
  });
});

describe("JSON nested 100,000 deep", () => {
  const deep = "[".repeat(100_000) + "]".repeat(100_000);

  test("a success answer: a SeqeraApiError saying so, not a stack overflow", async () => {
    server.reply({ headers: { "content-type": "application/json" }, body: `{"workflow":${deep}}` });
    const error = await failure(describeWorkflow());
    expect(error).toBeInstanceOf(SeqeraApiError);
    expect(error?.message).toBe(
      "GET /workflow/{workflowId} answered 200 with JSON nested deeper than 1000 levels, which no answer of the API does; refused before any code walks it (it would overflow the stack)",
    );
  });

  test("an error answer: the error class, with the body kept as text", async () => {
    server.reply({ status: 500, headers: { "content-type": "application/json" }, body: deep });
    const error = (await failure(describeWorkflow())) as ServerError;
    expect(error).toBeInstanceOf(ServerError);
    expect(typeof error.body).toBe("string");
  });

  test("nesting up to the bound, brackets inside strings not counted, is read as usual", async () => {
    const fine = `{"workflow":{"id":"${"[".repeat(5000)}","x":${"[".repeat(990)}${"]".repeat(990)}}}`;
    server.reply({ headers: { "content-type": "application/json" }, body: fine });
    const data = await describeWorkflow();
    expect(data.workflow?.id).toHaveLength(5000);
  });
});

describe("a CR or LF in a header value", () => {
  test.each([
    ["an object", { "X-Trace": "a\r\nInjected: yes" }],
    ["pairs", [["X-Trace", "a\nb"]]],
    ["an array value", { "X-Trace": ["ok", "a\rb"] }],
  ])(
    "per-call headers as %s: ConfigurationError naming the header, nothing sent",
    async (_, headers) => {
      const error = await failure(describeWorkflow({ headers }));
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error?.message).toMatch(
        /^headers \(GET \/workflow\/\{workflowId\}\): header "X-Trace" cannot be sent: .*must not contain CR, LF, NUL or other control characters, nor characters past U\+00FF \(value not shown\)\.$/,
      );
      expect(error?.message).not.toContain("Injected");
      expect(server.requests).toHaveLength(0);
    },
  );

  test("a bad name, and params.header too", async () => {
    const bad = await failure(describeWorkflow({ headers: { "X Trace": "v" } }));
    expect(bad?.message).toMatch(/^headers \(.*\): header "X Trace" cannot be sent/);
    const param = await failure(
      describeWorkflow({ params: { path: { workflowId: "w1" }, header: { "X-A": "a\nb" } } }),
    );
    expect(param).toBeInstanceOf(ConfigurationError);
    expect(param?.message).toMatch(/^params\.header \(.*\): header "X-A" cannot be sent/);
    expect(server.requests).toHaveLength(0);
  });

  test("good headers, and null values left out, are sent", async () => {
    server.reply({ body: { workflow: { id: "w1" } } });
    await describeWorkflow({ headers: { "X-Trace": "t1", "X-None": null } });
    expect(server.requests[0]?.headers["x-trace"]).toBe("t1");
    expect(server.requests[0]?.headers["x-none"]).toBeUndefined();
  });
});
