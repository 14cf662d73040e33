import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startEmulator, type Emulator, type Schema } from "../../src/testing/index.js";
import { type EmulatorRequest } from "../../src/testing/types.js";
import { api } from "./http.js";
import { runAnswer } from "./valid.js";

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
        body: runAnswer(String(request.params.workflowId), "FAILED"),
      };
    });
    emulator.setHandler("GET /user-info", () => ({ status: 500, body: { message: "boom" } }));
    const described = await api(emulator, "/workflow/abc?workspaceId=5&attributes=labels");
    expect(await described.json()).toEqual(runAnswer("abc", "FAILED"));
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

  test("a handler amends the emulator's own answer, computed once for the request", async () => {
    emulator.setHandler("CreateLabel", async (_request, answer) => {
      const own = await answer();
      expect(await answer()).toBe(own);
      return undefined;
    });
    await api(emulator, "/labels?workspaceId=5", {
      method: "POST",
      body: { name: "once", resource: false },
    });
    expect(emulator.state.labels.list(5).map((l) => l.name)).toEqual(["once"]);

    emulator.state.runs.add({ id: "amended", workspaceId: 5, status: "SUCCEEDED" });
    emulator.setHandler("DescribeWorkflow", async (_request, answer) => {
      const own = await answer();
      const body = own.body as Schema<"DescribeWorkflowResponse">;
      return { ...own, body: { ...body, workflow: { ...body.workflow!, status: "UNKNOWN" } } };
    });
    const described = await (await api(emulator, "/workflow/amended?workspaceId=5")).json();
    expect([described.workflow.id, described.workflow.status]).toEqual(["amended", "UNKNOWN"]);
    expect(described.workflow.runName).toBe(emulator.state.runs.get("amended")!.runName);
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

  test("a handler's answer is validated like the service's: a wrong one is a 500 saying what is wrong", async () => {
    const studio: Schema<"DataStudioDto"> = {
      sessionId: "a1b2c3d4",
      name: "analysis",
      statusInfo: { status: "running", lastUpdate: "2024-05-01T10:00:00Z" },
    };
    emulator.setHandler("ListDataStudios", (request) =>
      request.query.search === "broken"
        ? { status: 200, body: { studios: "not-an-array", totalSize: 1 } }
        : { status: 200, body: { studios: [studio], totalSize: 1 } },
    );
    const good = await api(emulator, "/studios?workspaceId=5");
    expect(await good.json()).toEqual({ studios: [studio], totalSize: 1 });
    const bad = await api(emulator, "/studios?workspaceId=5&search=broken");
    expect(bad.status).toBe(500);
    const message =
      "The handler of ListDataStudios answered a body the response schema rejects: " +
      "body/studios must be array. Fix the handler's answer.";
    expect(((await bad.json()) as { message: string }).message).toMatch(
      new RegExp(`^${message.replace(/[.()/]/g, "\\$&")} - Error ID: `),
    );
    expect(emulator.handlerErrors.at(-1)).toBe(message);
    emulator.clearHandlers();
  });

  test("an unknown operation is refused", () => {
    expect(() => emulator.setHandler("NoSuchOperation", () => undefined)).toThrow(
      /Unknown operation/,
    );
  });
});

describe("a handler that changes the state, then falls back to the emulator's answer", () => {
  let own: Emulator;
  beforeAll(async () => {
    // As `seqera-api emulator` serves, runs advance when described; no rate limit (no 429s).
    own = await startEmulator({
      autoAdvance: true,
      rateLimit: false,
      seed: {
        workspaces: [{ id: 42, org: "acme", name: "prod" }],
        computeEnvs: [{ id: "ce42", name: "aws", workspaceId: 42 }],
      },
    });
  });
  afterAll(() => own.close());

  const launched = async () => {
    const response = await api(own, "/workflow/launch?workspaceId=42", {
      method: "POST",
      body: { launch: { pipeline: "https://github.com/nf-core/rnaseq" } },
    });
    return ((await response.json()) as { workflowId: string }).workflowId;
  };
  const seeded = async () => own.state.runs.add({ workspaceId: 42 }).id;
  /** The tasks as the state holds them now, as ListWorkflowTasks lists them. */
  const inState = (id: string) =>
    own.state.runs
      .get(id)!
      .tasks.filter((t) => t.status !== "NEW")
      .map((t) => `${t.name} ${t.status}`);
  const listed = async (id: string) => {
    const answer = await api(own, `/workflow/${id}/tasks?workspaceId=42`);
    const { tasks } = (await answer.json()) as { tasks: { task: Schema<"Task"> }[] };
    return tasks.map(({ task }) => `${task.name} ${task.status}`);
  };
  const changes: Record<string, (id: string) => void | Promise<void>> = {
    "a step of the run": (id) => void own.state.runs.advance(id),
    "a step after an await": async (id) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      own.state.runs.advance(id);
    },
    "its running task failed by hand": (id) => {
      const task = own.state.runs.get(id)!.tasks.find((t) => t.status === "RUNNING");
      if (task) task.status = "FAILED";
      else own.state.runs.advance(id);
    },
  };

  for (const [kind, makeRun] of [
    ["a launched run (POST /workflow/launch)", launched],
    ["a seeded run", seeded],
  ] as const) {
    for (const [change, apply] of Object.entries(changes)) {
      test(`${kind}, ${change}: each ListWorkflowTasks answer shows its own call's change`, async () => {
        const id = await makeRun();
        own.setHandler("ListWorkflowTasks", async (request) => {
          const run = own.state.runs.get(String(request.params.workflowId));
          if (run && ["SUBMITTED", "RUNNING"].includes(run.status)) await apply(run.id);
          return undefined;
        });
        try {
          // Submitted, nothing listed: the first call's change is what the first answer shows.
          expect(inState(id)).toEqual([]);
          for (let call = 1; call <= 3; call++) {
            const answer = await listed(id);
            expect(answer, `call ${call}`).not.toEqual([]);
            expect(answer, `call ${call}`).toEqual(inState(id));
          }
        } finally {
          own.clearHandlers();
        }
      });
    }
  }
});
