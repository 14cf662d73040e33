import { once } from "node:events";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, expect, test } from "vitest";
import { emulatorEnv, root, sharedBuild, startCli, type BuiltCli } from "../cli/cli.js";

// The seed of docs/emulator.md, served by `seqera-api emulator --seed` and used as a
// shell script would (plain HTTP, no library).
const seedFile = path.join(root, "test/examples/emulator-seeding.json");

let cli: BuiltCli;
let child: ChildProcess;
let env: Record<string, string>;
beforeAll(async () => {
  cli = await sharedBuild();
  child = startCli(cli.main, ["emulator", "--seed", seedFile]);
  child.stdin!.end();
  env = await emulatorEnv(child);
}, 120_000);
afterAll(async () => {
  if (child) {
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    await exited;
  }
});

async function call(route: string, body?: unknown): Promise<any> {
  const response = await fetch(`${env.TOWER_API_ENDPOINT}${route}`, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      authorization: `Bearer ${env.TOWER_ACCESS_TOKEN}`,
      ...(body !== undefined && { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.status, `${route}: ${text}`).toBe(200);
  return response.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text;
}

/** Polls as `seqera-api wait` does; the served emulator moves a run one step per describe. */
async function waitForEnd(id: string): Promise<any> {
  for (let i = 0; i < 50; i++) {
    const { workflow } = await call(`/workflow/${id}?workspaceId=42`);
    if (!["SUBMITTED", "RUNNING"].includes(workflow.status)) return workflow;
  }
  throw new Error(`run ${id} did not end`);
}

test("the seed in docs/emulator.md is this file, verbatim", async () => {
  const doc = await readFile(path.join(root, "docs/emulator.md"), "utf8");
  const seed = await readFile(seedFile, "utf8");
  expect(doc).toContain("```json\n" + seed + "```");
});

test("the seeded failed run answers with its times (relative to the start), cost, tasks, exit codes and stderr", async () => {
  const { workflow, cost } = await call("/workflow/1nightly?workspaceId=42");
  expect(workflow).toMatchObject({
    status: "FAILED",
    projectName: "nf-core/rnaseq",
    duration: 7_830_000,
  });
  expect(cost).toBe(3.85);
  // Minutes ago: the emulator started moments before this test.
  const minutesAgo = (time: string) => Math.round((Date.now() - Date.parse(time)) / 60_000);
  expect([workflow.submit, workflow.start, workflow.complete].map(minutesAgo)).toEqual([
    600, 598, 468,
  ]);
  const { tasks } = await call("/workflow/1nightly/tasks?workspaceId=42");
  expect(tasks.map((t: any) => [t.task.name, t.task.status, t.task.exitStatus])).toEqual([
    ["FASTQC (s1)", "COMPLETED", 0],
    ["STAR_ALIGN (s1)", "FAILED", 137],
    ["STAR_ALIGN (s2)", "FAILED", 1],
  ]);
  expect(await call("/workflow/1nightly/download/2?workspaceId=42&fileName=.command.err")).toBe(
    "Killed\nstar: out of memory (30 GB requested)\n",
  );
});

test("its resume keeps the session and fails again as seeded (relaunchEnding)", async () => {
  const { workflow: failed } = await call("/workflow/1nightly?workspaceId=42");
  const { launch } = await call("/workflow/1nightly/launch?workspaceId=42");
  const { workflowId } = await call("/workflow/launch?workspaceId=42", {
    launch: {
      id: failed.launchId,
      sessionId: launch.sessionId,
      computeEnvId: launch.computeEnv.id,
      pipeline: launch.pipeline,
      workDir: launch.resumeDir,
      revision: launch.resumeCommitId,
      resume: true,
    },
  });
  const resumed = await waitForEnd(workflowId);
  expect(resumed).toMatchObject({ status: "FAILED", sessionId: failed.sessionId, resume: true });
  const { tasks } = await call(`/workflow/${workflowId}/tasks?workspaceId=42`);
  expect(tasks.map((t: any) => [t.task.process, t.task.exitStatus])).toEqual([
    ["FASTQC", 0],
    ["STAR_ALIGN", 137],
  ]);
});

test("a launch of the saved pipeline fails at FASTQC and MULTIQC (the pipeline's ending)", async () => {
  const { pipelines } = await call("/pipelines?workspaceId=42&search=rnaseq");
  const { launch } = await call(`/pipelines/${pipelines[0].pipelineId}/launch?workspaceId=42`);
  const { workflowId } = await call("/workflow/launch?workspaceId=42", {
    launch: {
      id: launch.id,
      pipeline: launch.pipeline,
      computeEnvId: "ce1",
      workDir: "s3://acme-work",
    },
  });
  const run = await waitForEnd(workflowId);
  expect(run).toMatchObject({
    status: "FAILED",
    projectName: "nf-core/rnaseq",
  });
  const { tasks } = await call(`/workflow/${workflowId}/tasks?workspaceId=42`);
  expect(tasks.map((t: any) => [t.task.process, t.task.status, t.task.exitStatus])).toEqual([
    ["FASTQC", "FAILED", 1],
    ["MULTIQC", "FAILED", 2],
  ]);
  expect(
    await call(`/workflow/${workflowId}/download/1?workspaceId=42&fileName=.command.err`),
  ).toBe("fastqc: truncated file\n");
});
