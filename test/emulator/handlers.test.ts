import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startEmulator, type Emulator } from "../../src/testing/index.js";
import { type EmulatorRequest } from "../../src/testing/types.js";
import { api } from "./http.js";

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({
    seed: { workspaces: [{ id: 5, org: "acme", name: "five" }] },
  });
});
afterAll(() => emulator.close());

describe("handler overrides", () => {
  test("a handler answers for its operation, by operationId or by METHOD /template", async () => {
    const seen: EmulatorRequest[] = [];
    emulator.setHandler("DescribeWorkflow", (request) => {
      seen.push(request);
      return {
        status: 200,
        body: { workflow: { id: String(request.params.workflowId), status: "FAILED" } },
      };
    });
    emulator.setHandler("GET /user-info", () => ({ status: 500, body: { message: "boom" } }));
    const described = await api(emulator, "/workflow/abc?workspaceId=5&attributes=labels");
    expect(await described.json()).toEqual({ workflow: { id: "abc", status: "FAILED" } });
    expect(seen[0]).toMatchObject({
      operationId: "DescribeWorkflow",
      route: "/workflow/{workflowId}",
      params: { workflowId: "abc" },
      query: { workspaceId: 5, attributes: ["labels"] },
    });
    expect(seen[0]!.headers).not.toHaveProperty("authorization");
    expect((await api(emulator, "/user-info")).status).toBe(500);
    emulator.clearHandlers();
    expect((await api(emulator, "/user-info")).status).toBe(200);
  });

  test("a handler returning undefined falls back to the emulator's own answer", async () => {
    emulator.setHandler("ListWorkflows", () => undefined);
    const response = await api(emulator, "/workflow");
    expect(await response.json()).toEqual({ hasMore: false, totalSize: 0, workflows: [] });
    emulator.clearHandlers();
  });

  test("requests are validated before a handler sees them", async () => {
    let called = false;
    emulator.setHandler("ListWorkflows", () => {
      called = true;
      return { status: 200, body: {} };
    });
    expect((await api(emulator, "/workflow?max=1000")).status).toBe(400);
    expect(called).toBe(false);
    emulator.clearHandlers();
  });

  test("a throwing handler is the service's unexpected error", async () => {
    emulator.setHandler("Info", () => {
      throw new Error("handler bug");
    });
    const response = await api(emulator, "/service-info");
    expect(response.status).toBe(500);
    expect(((await response.json()) as { message: string }).message).toMatch(
      /^Unexpected error while processing - Error ID: [A-Za-z0-9]{22}$/,
    );
    emulator.clearHandlers();
  });

  test("text and bytes answers keep their content types", async () => {
    emulator.setHandler("DownloadWorkflowLog", () => ({ status: 200, body: "line 1\n" }));
    const log = await api(emulator, "/workflow/abc/download?fileName=nextflow.log");
    expect(log.headers.get("content-type")).toBe("text/plain");
    expect(await log.text()).toBe("line 1\n");
    emulator.clearHandlers();
  });

  test("an unknown operation is refused", () => {
    expect(() => emulator.setHandler("NoSuchOperation", () => undefined)).toThrow(
      /Unknown operation/,
    );
  });
});
