import { getEventListeners } from "node:events";
import { describe, expect, test } from "vitest";
import {
  BadRequestError,
  ConflictError,
  ConnectionError,
  ForbiddenError,
  NotFoundError,
  RateLimitError,
  SeqeraApiError,
  ServerError,
  TimeoutError,
} from "../../src/index.js";
import { startServer, useTestServer } from "../helpers/server.js";
import { clientFor } from "../helpers/client.js";

const server = await useTestServer();

/** The error a call rejects with; fails the test if it resolves. */
async function failure(call: Promise<unknown>): Promise<SeqeraApiError> {
  const outcome = await call.then(
    (data) => ({ data }),
    (error: unknown) => ({ error }),
  );
  if (!("error" in outcome))
    throw new Error(`expected a failure, got ${JSON.stringify(outcome.data)}`);
  return outcome.error as SeqeraApiError;
}

const describeWorkflow = () =>
  clientFor(server).GET("/workflow/{workflowId}", { params: { path: { workflowId: "w1" } } });

describe("HTTP errors", () => {
  test("400 with an Error ID: BadRequestError with errorId and the message without the suffix", async () => {
    server.reply({
      status: 400,
      body: { message: "Unexpected error while processing - Error ID: 54apnFENQxbvCr23JaIjLb" },
    });
    const error = await failure(describeWorkflow());
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toBeInstanceOf(SeqeraApiError);
    expect(error.name).toBe("BadRequestError");
    expect(error.errorId).toBe("54apnFENQxbvCr23JaIjLb");
    expect(error.message).toBe("Unexpected error while processing");
    expect(error).toMatchObject({
      status: 400,
      method: "GET",
      path: "/workflow/{workflowId}",
      operationId: "DescribeWorkflow",
    });
  });

  test("400 without an Error ID keeps the whole message", async () => {
    server.reply({ status: 400, body: { message: "Invalid workflow id" } });
    const error = await failure(describeWorkflow());
    expect(error.message).toBe("Invalid workflow id");
    expect(error.errorId).toBeUndefined();
  });

  test("403 with an empty body, no workspace sent: ForbiddenError naming the path and every cause", async () => {
    const client = clientFor({ ...server, url: `${server.url}/api` });
    server.reply({ status: 403 });
    const error = await failure(
      client.GET("/workflow/{workflowId}", { params: { path: { workflowId: "w1" } } }),
    );
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error.status).toBe(403);
    expect(error.message).toBe(
      "Forbidden (403) for GET /api/workflow/w1, sent without a workspaceId (so in the token owner's personal workspace): the access token is invalid or expired, or lacks a permission this needs, or the resource is in another workspace (each of these answers 403); or this path is not available on this server.",
    );
    expect((error as ForbiddenError).workspaceId).toBeUndefined();
    expect(error.body).toBeUndefined();
    expect(error.response?.status).toBe(403);
  });

  test("403 names the workspace sent (the client's, or the call's own) and quotes the server", async () => {
    const client = clientFor(server, { workspaceId: 42 });
    server.reply({ status: 403, body: { message: "Access denied" } }, { status: 403 });
    const error = (await failure(
      client.GET("/workflow/{workflowId}", { params: { path: { workflowId: "w1" } } }),
    )) as ForbiddenError;
    expect(error.workspaceId).toBe("42");
    expect(error.message).toMatch(
      /^Forbidden \(403\) for GET \/workflow\/w1, sent with workspaceId 42: .*another workspace.* Server said: Access denied$/,
    );
    expect(error.body).toEqual({ message: "Access denied" });
    const own = (await failure(
      client.GET("/workflow/{workflowId}", {
        params: { path: { workflowId: "w1" }, query: { workspaceId: 7 } },
      }),
    )) as ForbiddenError;
    expect(own.workspaceId).toBe("7");
    expect(own.message).toContain("sent with workspaceId 7:");
  });

  test.each([
    [404, NotFoundError, { message: "Workflow not found" }, "Workflow not found"],
    [
      409,
      ConflictError,
      { message: "A pipeline named 'x' already exists" },
      "A pipeline named 'x' already exists",
    ],
    [500, ServerError, { message: "Oops - Error ID: abc123" }, "Oops"],
    [503, ServerError, undefined, "HTTP 503 Service Unavailable for GET /workflow/w1"],
  ] as const)("%i: %o", async (status, type, body, message) => {
    server.reply({ status, body });
    const error = await failure(describeWorkflow());
    expect(error).toBeInstanceOf(type);
    expect(error.status).toBe(status);
    expect(error.message).toBe(message);
  });

  test("429: RateLimitError with retryAfter from Retry-After", async () => {
    server.reply({
      status: 429,
      headers: { "retry-after": "3" },
      body: { message: "Maximum request rate exceeded. Wait 3secs before issuing a new request" },
    });
    const error = await failure(describeWorkflow());
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(3);
    expect(error.message).toMatch(/Maximum request rate exceeded/);
  });

  test("429 with Retry-After 0 means 0, not absent", async () => {
    server.reply({ status: 429, headers: { "retry-after": "0" }, body: { message: "Wait 0secs" } });
    expect(((await failure(describeWorkflow())) as RateLimitError).retryAfter).toBe(0);
  });

  test("429 with an HTTP date in Retry-After: the seconds until then", async () => {
    const inFive = new Date(Date.now() + 5_000).toUTCString();
    server.reply({ status: 429, headers: { "retry-after": inFive }, body: {} });
    const { retryAfter } = (await failure(describeWorkflow())) as RateLimitError;
    expect(retryAfter).toBeGreaterThanOrEqual(4);
    expect(retryAfter).toBeLessThanOrEqual(5);
  });

  test("429 with a garbage Retry-After: undefined, not NaN or negative", async () => {
    for (const value of ["soon", "-3", "1.5"]) {
      server.reply({ status: 429, headers: { "retry-after": value }, body: {} });
      expect(((await failure(describeWorkflow())) as RateLimitError).retryAfter).toBeUndefined();
    }
  });

  test("429 without the header: no retryAfter, the message's words are not read", async () => {
    server.reply({
      status: 429,
      body: { message: "Maximum request rate exceeded. Wait 7secs before issuing a new request" },
    });
    const error = (await failure(describeWorkflow())) as RateLimitError;
    expect(error.retryAfter).toBeUndefined();
    expect(error.message).toBe(
      "Maximum request rate exceeded. Wait 7secs before issuing a new request",
    );
  });

  test("a non-JSON error body (a proxy's HTML page) is an error carrying a snippet", async () => {
    server.reply({
      status: 502,
      headers: { "content-type": "text/html" },
      body: "<html><h1>502 Bad Gateway</h1></html>",
    });
    const error = await failure(describeWorkflow());
    expect(error).toBeInstanceOf(ServerError);
    expect(error.message).toContain("502 Bad Gateway");
    expect(error.body).toBe("<html><h1>502 Bad Gateway</h1></html>");
  });

  test("an unmapped status is a plain SeqeraApiError", async () => {
    server.reply({ status: 401, body: { message: "Unauthorized" } });
    const error = await failure(describeWorkflow());
    expect(error.constructor).toBe(SeqeraApiError);
    expect(error.status).toBe(401);
  });

  test("an error on an operation with an empty success body still fails", async () => {
    server.reply({ status: 403 });
    const error = await failure(
      clientFor(server).DELETE("/workflow/{workflowId}", {
        params: { path: { workflowId: "w1" } },
      }),
    );
    expect(error).toBeInstanceOf(ForbiddenError);
  });
});

describe("success statuses with the wrong body", () => {
  test("200 with an empty body where JSON is expected is an error, not undefined", async () => {
    server.reply({ status: 200, body: "" });
    const error = await failure(describeWorkflow());
    expect(error.constructor).toBe(SeqeraApiError);
    expect(error.message).toMatch(/empty body where JSON was expected/);
  });

  test("200 with a body that is not JSON is an error", async () => {
    server.reply({
      status: 200,
      headers: { "content-type": "text/plain" },
      body: "OK",
    });
    const error = await failure(describeWorkflow());
    expect(error.message).toMatch(/not JSON \(text\/plain\)/);
  });

  test("204 on an operation that may answer without content resolves to undefined", async () => {
    server.reply({ status: 204 });
    const data = await clientFor(server).GET("/pipelines/{pipelineId}/schema", {
      params: { path: { pipelineId: 1 } },
    });
    expect(data).toBeUndefined();
  });
});

describe("no response", () => {
  test("connection refused: ConnectionError with the cause", async () => {
    const closed = await startServer();
    await closed.close();
    const client = clientFor(closed);
    const error = await failure(client.GET("/service-info"));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.status).toBeUndefined();
    expect(error.message).toMatch(
      /GET \/service-info failed: no response from http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/,
    );
    expect(error.cause).toBeInstanceOf(Error);
  });

  test("connection dropped without an answer: ConnectionError", async () => {
    server.reply({ destroy: true });
    expect(await failure(describeWorkflow())).toBeInstanceOf(ConnectionError);
  });

  test("no headers within the timeout: TimeoutError", async () => {
    server.reply({ delayMs: 5_000, body: {} });
    const error = await failure(clientFor(server, { timeoutMs: 100 }).GET("/service-info"));
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).timeoutMs).toBe(100);
    expect(error.message).toBe("GET /service-info timed out after 100 ms");
  });

  test("a call's timeoutMs overrides the client's", async () => {
    server.reply({ delayMs: 5_000, body: {} });
    const error = await failure(clientFor(server).GET("/service-info", { timeoutMs: 50 }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).timeoutMs).toBe(50);
  });

  test("a timeout beyond what a timer can hold (Infinity, 2^31 ms) means none, not 1 ms", async () => {
    server.reply({ delayMs: 50, body: { ok: 1 } }, { delayMs: 50, body: { ok: 2 } });
    const perCall = clientFor(server).GET("/service-info", { timeoutMs: Infinity });
    await expect(perCall).resolves.toEqual({ ok: 1 });
    const perClient = clientFor(server, { timeoutMs: 2 ** 31 }).GET("/service-info");
    await expect(perClient).resolves.toEqual({ ok: 2 });
  });

  test("a body stalled past the timeout: TimeoutError", async () => {
    server.reply({
      bodyDelayMs: 5_000,
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    const error = await failure(clientFor(server, { timeoutMs: 150 }).GET("/service-info"));
    expect(error).toBeInstanceOf(TimeoutError);
  });

  test("a long-lived signal given to every call keeps nothing per call once the calls are done", async () => {
    // Node 20's AbortSignal.any() records each composite on its sources and never forgets it:
    // a service passing one shutdown signal to all its calls grew by every call.
    const shutdown = new AbortController();
    const client = clientFor(server);
    for (let i = 0; i < 5; i++) await client.GET("/service-info", { signal: shutdown.signal });
    await expect(
      client.GET("/service-info", { signal: shutdown.signal, parseAs: "text" }),
    ).resolves.toBeTypeOf("string");
    const symbols = Object.getOwnPropertySymbols(shutdown.signal);
    const dependants = symbols.find((symbol) => symbol.description === "kDependantSignals");
    const recorded = dependants
      ? (shutdown.signal as unknown as Record<symbol, Set<unknown> | undefined>)[dependants]
      : undefined;
    expect(recorded?.size ?? 0).toBe(0);
    expect(getEventListeners(shutdown.signal, "abort")).toHaveLength(0);
  });

  test("the caller's abort rejects with the caller's reason, not a TimeoutError", async () => {
    server.reply({ delayMs: 5_000, body: {} });
    const controller = new AbortController();
    const call = clientFor(server).GET("/service-info", { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("user gave up")), 50);
    await expect(call).rejects.toThrow("user gave up");
  });
});
