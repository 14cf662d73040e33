import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import {
  ForbiddenError,
  downloadRunLog,
  followRunLog,
  saveRunLogs,
  taskLog,
} from "../../src/index.js";
import type { Emulator } from "../../src/testing/index.js";
import { FAST, clientOf, seededEmulator } from "./setup.js";
import { collect } from "../helpers/calls.js";
import { clientFor } from "../helpers/client.js";
import { useTestServer } from "../helpers/server.js";

const server = await useTestServer();

let emulator: Emulator;
let dir: string;
beforeAll(async () => {
  emulator = await seededEmulator();
  dir = await mkdtemp(path.join(tmpdir(), "seqera-logs-"));
});
afterAll(async () => {
  await emulator.close();
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => emulator.clearHandlers());

const active = (id: string) => {
  const status = emulator.state.runs.get(id)!.status;
  return status === "SUBMITTED" || status === "RUNNING";
};

/** The run moves one step each time its log is read: the log grows while it is followed. */
function advanceOnLogRead(): void {
  emulator.setHandler("GetWorkflowLog", (request) => {
    const id = String(request.params.workflowId);
    if (active(id)) emulator.state.runs.advance(id);
    return undefined;
  });
}

describe("followRunLog", () => {
  test("a log that grows while followed: every line once, in order, until the run ends", async () => {
    advanceOnLogRead();
    const id = emulator.state.runs.add({ workspaceId: 42, tasks: ["A", "B", "C"] }).id;
    const lines = await collect(followRunLog(clientOf(emulator), id, FAST));
    const run = emulator.state.runs.get(id)!;
    expect(run.status).toBe("SUCCEEDED");
    expect(run.log.length).toBeGreaterThan(8);
    expect(lines).toEqual(run.log);
  });

  test("in small pages (truncated), the same lines", async () => {
    advanceOnLogRead();
    const id = emulator.state.runs.add({ workspaceId: 42, tasks: ["A", "B"] }).id;
    const from = emulator.requests.length;
    const lines = await collect(followRunLog(clientOf(emulator), id, { ...FAST, maxLength: 40 }));
    expect(lines).toEqual(emulator.state.runs.get(id)!.log);
    const pages = emulator.requests.slice(from).filter((r) => r.operationId === "GetWorkflowLog");
    expect(pages.length).toBeGreaterThan(lines.length / 2);
  });

  test("a run that failed while followed ends the iteration after its last lines", async () => {
    const id = emulator.state.runs.add({ workspaceId: 42 }).id;
    let reads = 0;
    emulator.setHandler("GetWorkflowLog", () => {
      if (++reads === 2) emulator.state.runs.advance(id);
      if (reads === 4) emulator.state.runs.finish(id, "FAILED", "boom");
      return undefined;
    });
    const lines = await collect(followRunLog(clientOf(emulator), id, FAST));
    expect(lines).toEqual(emulator.state.runs.get(id)!.log);
    expect(lines.some((l) => /ERROR ~ Error executing process/.test(l))).toBe(true);
  });

  test("against a server that gives no token: the whole log each time, none given twice", async () => {
    const id = emulator.state.runs.add({ workspaceId: 42, tasks: ["A", "B"] }).id;
    emulator.setHandler("GetWorkflowLog", () => {
      const run = emulator.state.runs.get(id)!;
      const body = { log: { entries: [...run.log], truncated: false, pending: active(id) } };
      if (active(id)) emulator.state.runs.advance(id);
      return { status: 200, body };
    });
    const lines = await collect(followRunLog(clientOf(emulator), id, FAST));
    expect(lines).toEqual(emulator.state.runs.get(id)!.log);
  });

  test("leaving the loop stops reading", async () => {
    advanceOnLogRead();
    const id = emulator.state.runs.add({ workspaceId: 42, tasks: ["A", "B", "C"] }).id;
    const reads = () => emulator.requests.filter((r) => r.operationId === "GetWorkflowLog").length;
    const lines: string[] = [];
    let atBreak = 0;
    for await (const line of followRunLog(clientOf(emulator), id, FAST)) {
      lines.push(line);
      if (lines.length === 2) {
        atBreak = reads();
        break;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lines).toEqual(emulator.state.runs.get(id)!.log.slice(0, 2));
    // Every read would have moved the run on: it stayed where the loop left it.
    expect(reads()).toBe(atBreak);
    expect(emulator.state.runs.get(id)!.status).toBe("RUNNING");
  });

  test("a run of another workspace is a ForbiddenError", async () => {
    const id = emulator.state.runs.add({ workspaceId: 43, status: "SUCCEEDED" }).id;
    await expect(collect(followRunLog(clientOf(emulator), id, FAST))).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    await expect(
      collect(followRunLog(clientOf(emulator).withWorkspace("acme/dev"), id, FAST)),
    ).resolves.toEqual(emulator.state.runs.get(id)!.log);
  });
});

describe("task logs and log files", () => {
  test("taskLog gives a task's output; downloadRunLog a run's or a task's file", async () => {
    const id = emulator.state.runs.add({
      workspaceId: 42,
      status: "FAILED",
      errorMessage: "exit 1",
    }).id;
    const task = emulator.state.runs.get(id)!.tasks.find((t) => t.status === "FAILED")!;
    const client = clientOf(emulator);
    await expect(taskLog(client, id, task.taskId)).resolves.toEqual(task.stdout);
    await expect(
      downloadRunLog(client, id, { taskId: task.taskId, fileName: ".command.err" }),
    ).resolves.toContain("exit 1");
    const nextflowLog = await downloadRunLog(client, id);
    expect(nextflowLog).toContain("DEBUG nextflow.Session - N E X T F L O W");
    await expect(downloadRunLog(client, id, { fileName: `nf-${id}.txt` })).resolves.toContain(
      "N E X T F L O W",
    );
  });

  test("taskLog reads every truncated page; entries that are not a list are a SeqeraApiError, not characters", async () => {
    const id = emulator.state.runs.add({ workspaceId: 42, status: "SUCCEEDED" }).id;
    const pages: Record<string, object> = {
      "": { entries: ["a", "b"], truncated: true, forwardToken: "t1" },
      t1: { entries: ["c"], truncated: true, forwardToken: "t2" },
      t2: { entries: ["d"], truncated: false, forwardToken: "t3" },
    };
    emulator.setHandler("GetWorkflowTaskLog", (request) => ({
      status: 200,
      body: { log: pages[String(request.query.next ?? "")] },
    }));
    await expect(taskLog(clientOf(emulator), id, 1)).resolves.toEqual(["a", "b", "c", "d"]);
    // A service answering text where the schema says a list (the emulator would refuse to).
    server.handle(() => ({ body: { log: { entries: "a line", truncated: false } } }));
    await expect(taskLog(clientFor(server), id, 1)).rejects.toThrow(
      'GET /workflow/{workflowId}/log/{taskId} answered 200 with "entries" as string where a list was expected',
    );
  });

  test("saveRunLogs writes every file the run offers under its save name", async () => {
    const run = emulator.state.runs.add({
      workspaceId: 42,
      status: "SUCCEEDED",
      runName: "happy_turing",
    });
    const files = await saveRunLogs(clientOf(emulator), run.id, path.join(dir, "logs"));
    expect(files.map((f) => path.basename(f))).toEqual(["happy_turing.txt", "happy_turing.log"]);
    expect(await readFile(files[0]!, "utf8")).toBe(run.log.join("\n") + "\n");
    expect(await readFile(files[1]!, "utf8")).toContain("DEBUG nextflow.Session");
  });
});
