import { describe, expect, test } from "vitest";
import type { LogEntry } from "../../src/http/log.js";
import { useTestServer } from "../helpers/server.js";
import { clientFor } from "../helpers/client.js";

const server = await useTestServer();

function recordingClient(options = {}) {
  const entries: LogEntry[] = [];
  const client = clientFor(server, { logger: (entry) => entries.push(entry), ...options });
  return { client, entries };
}

describe("logger", () => {
  test("gets one entry per call: method, path template, operation, status, duration, attempt, limiter wait, error", async () => {
    const { client, entries } = recordingClient();
    server.reply({ body: {} }, { status: 404, body: { message: "Workflow not found" } });
    await client.GET("/workflow/{workflowId}", { params: { path: { workflowId: "w1" } } });
    await expect(
      client.DELETE("/workflow/{workflowId}", { params: { path: { workflowId: "w2" } } }),
    ).rejects.toThrow("Workflow not found");
    expect(entries).toEqual([
      {
        method: "GET",
        path: "/workflow/{workflowId}",
        operationId: "DescribeWorkflow",
        attempt: 1,
        status: 200,
        durationMs: expect.any(Number),
        limiterWaitMs: 0,
      },
      {
        method: "DELETE",
        path: "/workflow/{workflowId}",
        operationId: "DeleteWorkflow",
        attempt: 1,
        status: 404,
        durationMs: expect.any(Number),
        limiterWaitMs: 0,
        error: "Workflow not found",
      },
    ]);
    expect(entries[0]!.durationMs).toBeGreaterThanOrEqual(0);
  });

  test("records attempts that got no response, with the error and no status", async () => {
    const { client, entries } = recordingClient({ timeoutMs: 50 });
    server.reply({ delayMs: 5_000, body: {} });
    await expect(client.GET("/service-info")).rejects.toThrow("timed out");
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      operationId: "Info",
      attempt: 1,
      error: "GET /service-info timed out after 50 ms",
    });
    expect(entries[0]!.status).toBeUndefined();
  });

  test("measures the time until the response arrived", async () => {
    const { client, entries } = recordingClient();
    server.reply({ delayMs: 120, body: {} });
    await client.GET("/service-info");
    // A lower bound only: the server waited 120 ms before answering.
    expect(entries[0]!.durationMs).toBeGreaterThanOrEqual(100);
  });

  test("a throwing logger does not fail the call", async () => {
    const client = clientFor(server, {
      logger: () => {
        throw new Error("logger bug");
      },
    });
    server.reply({ body: { user: { userName: "ada" } } });
    await expect(client.GET("/user-info")).resolves.toEqual({ user: { userName: "ada" } });
  });
});
