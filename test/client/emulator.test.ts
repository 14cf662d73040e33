import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  BadRequestError,
  createSeqeraClient,
  ForbiddenError,
  ServerError,
  type SeqeraClient,
  type SeqeraClientOptions,
} from "../../src/index.js";
import { startEmulator, type Emulator } from "../../src/testing/index.js";

/**
 * The client against the emulator, the service's stand-in built from the same schema: auth,
 * errors, versioning, retries, pagination and the limiter, end to end.
 */
let emulator: Emulator;
const clients: SeqeraClient[] = [];

beforeAll(async () => {
  // The compute env the launches below name.
  emulator = await startEmulator({ seed: { computeEnvs: [{ id: "ce", name: "ce" }] } });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await emulator.close();
});

function clientWith(options: SeqeraClientOptions = {}): SeqeraClient {
  const client = createSeqeraClient({
    token: emulator.token,
    baseUrl: emulator.url,
    env: {},
    retry: { baseDelayMs: 20 },
    ...options,
  });
  clients.push(client);
  return client;
}

/** A token of its own, so that the emulator's per-token limit counts this test's calls only. */
function freshToken(): string {
  const token = `token-${Math.random().toString(36).slice(2)}`;
  emulator.addToken(token);
  return token;
}

describe("auth and errors", () => {
  test("a revoked token and a mistyped path are both a ForbiddenError naming the path", async () => {
    const token = freshToken();
    const client = clientWith({ token });
    await expect(client.request("GET", "/workflowz")).rejects.toThrow(
      /403.*\/workflowz.*token is invalid or expired.*this path is not available on this server/,
    );
    emulator.revokeToken(token);
    await expect(client.GET("/user-info")).rejects.toBeInstanceOf(ForbiddenError);
  });

  test("invalid input is a BadRequestError with the Error ID apart from the message", async () => {
    const error = await clientWith()
      .GET("/workflow", { params: { query: { workspaceId: 1, max: 101 } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    const { errorId, message } = error as BadRequestError;
    expect(errorId).toMatch(/^[A-Za-z0-9]+$/);
    expect(message).not.toContain("Error ID");
  });

  test("an Accept-Version the server does not serve is refused, per client and per call", async () => {
    await expect(clientWith({ acceptVersion: "9" }).GET("/service-info")).rejects.toBeInstanceOf(
      BadRequestError,
    );
    await expect(clientWith().GET("/service-info", { acceptVersion: "9" })).rejects.toThrow("9");
    await expect(clientWith().GET("/service-info")).resolves.toHaveProperty("serviceInfo");
  });
});

describe("retries", () => {
  test("a GET rides out a 503 and a connection reset; the answer arrives once", async () => {
    const client = clientWith();
    const id = emulator.state.runs.add({ status: "RUNNING" }).id;
    const before = emulator.requests.length;
    emulator.faults.queue("unavailable", "reset");
    const { workflow } = await client.GET("/workflow/{workflowId}", {
      params: { path: { workflowId: id } },
    });
    expect(workflow?.status).toBe("RUNNING");
    // The reset is recorded without a status: no answer was sent.
    expect(emulator.requests.slice(before).map((r) => r.status)).toEqual([503, undefined, 200]);
  });

  test("a POST is not sent again after a 503 unless the call opts in", async () => {
    const client = clientWith();
    const launch = { body: { launch: { pipeline: "nf-core/rnaseq", computeEnvId: "ce" } } };
    const launched = () =>
      emulator.requests.filter((r) => r.operationId === "CreateWorkflowLaunch");
    const before = launched().length;
    emulator.faults.queue("unavailable");
    await expect(client.POST("/workflow/launch", launch)).rejects.toBeInstanceOf(ServerError);
    expect(launched().length - before).toBe(0);
    emulator.faults.queue("unavailable");
    await expect(
      client.POST("/workflow/launch", { ...launch, retryUnsafe: true }),
    ).resolves.toHaveProperty("workflowId");
    expect(launched().length - before).toBe(1);
  });
});

describe("pagination", () => {
  test("walks 230 runs in pages of 100 and stops at the total", async () => {
    for (let i = 0; i < 230; i++) emulator.state.runs.add({ workspaceId: 77 });
    const client = clientWith({ workspaceId: "77", rateLimit: false });
    const before = emulator.requests.length;
    const ids = new Set<string>();
    for await (const item of client.paginate("/workflow")) ids.add(item.workflow!.id!);
    expect(ids.size).toBe(230);
    expect(emulator.requests.slice(before).map((r) => r.search)).toEqual([
      "max=100&offset=0&workspaceId=77",
      "max=100&offset=100&workspaceId=77",
      "max=100&offset=200&workspaceId=77",
    ]);
  });
});

describe("rate limit", () => {
  test("45 concurrent calls on one token: the emulator's 20/s limit never answers 429", async () => {
    const client = clientWith({ token: freshToken() });
    const before = emulator.requests.length;
    await Promise.all(Array.from({ length: 45 }, () => client.GET("/user-info")));
    const statuses = emulator.requests.slice(before).map((r) => r.status);
    expect(statuses).toHaveLength(45);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  });

  test("without the limiter the same burst meets the emulator's 429s", async () => {
    // Retries off too: the 429s reach the caller as RateLimitError.
    const client = clientWith({ token: freshToken(), rateLimit: false, retry: false });
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, () => client.GET("/user-info")),
    );
    const rejected = results.filter((r) => r.status === "rejected");
    expect(rejected.length).toBeGreaterThan(0);
    expect((rejected[0] as PromiseRejectedResult).reason).toMatchObject({
      name: "RateLimitError",
      retryAfter: expect.any(Number),
    });
  });
});
