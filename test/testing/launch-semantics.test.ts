import { afterEach, describe, expect, test } from "vitest";
import { startEmulator, type Emulator } from "../../src/testing/index.js";
import { expectAnswer } from "./http.js";

let emulator: Emulator | undefined;
afterEach(() => emulator?.close());

async function start(): Promise<Emulator> {
  emulator = await startEmulator({
    rateLimit: false,
    seed: {
      workspaces: [
        { org: "acme", name: "source", id: 42 },
        { org: "acme", name: "analysis", id: 43 },
        { org: "other", name: "elsewhere", id: 50 },
      ],
      computeEnvs: [
        { id: "ce42", name: "aws", workspaceId: 42 },
        { id: "down", name: "old", workspaceId: 43, status: "ERRORED", primary: true },
        { id: "ce43", name: "aws", workspaceId: 43 },
      ],
      pipelines: [
        { name: "rnaseq", workspaceId: 42, visibility: "SHARED", launch: { computeEnvId: "ce42" } },
        { name: "rnaseq-private", workspaceId: 42, launch: { computeEnvId: "ce42" } },
        { name: "sarek", workspaceId: 43, launch: { computeEnvId: "ce43" } },
      ],
    },
  });
  return emulator;
}

const names = (body: any) => body.pipelines.map((p: any) => [p.name, p.workspaceId, p.visibility]);

describe("org-shared pipelines, as tw finds and launches them", () => {
  test("visibility=all adds the organization's shared pipelines; search finds them by name", async () => {
    const e = await start();
    expect(names(await expectAnswer(e, "GET /pipelines", "/pipelines?workspaceId=43"))).toEqual([
      ["sarek", 43, "PRIVATE"],
    ]);
    const all = await expectAnswer(
      e,
      "GET /pipelines",
      "/pipelines?workspaceId=43&visibility=all&search=rnaseq",
    );
    expect(names(all)).toEqual([["rnaseq", 42, "SHARED"]]);
    expect(all.totalSize).toBe(1);
    const shared = await expectAnswer(
      e,
      "GET /pipelines",
      "/pipelines?workspaceId=43&visibility=shared",
    );
    expect(names(shared)).toEqual([["rnaseq", 42, "SHARED"]]);
    // Another organization's workspace does not see it.
    const other = await expectAnswer(
      e,
      "GET /pipelines",
      "/pipelines?workspaceId=50&visibility=all",
    );
    expect(names(other)).toEqual([]);
  });

  test("described and launched with sourceWorkspaceId; not without it", async () => {
    const e = await start();
    const shared = e.state.pipelines.byName("rnaseq", 42)!;
    await expectAnswer(
      e,
      "GET /pipelines/{pipelineId}/launch",
      `/pipelines/${shared.id}/launch?workspaceId=43`,
      {
        status: 403,
      },
    );
    const { launch } = await expectAnswer(
      e,
      "GET /pipelines/{pipelineId}/launch",
      `/pipelines/${shared.id}/launch?workspaceId=43&sourceWorkspaceId=42`,
    );
    expect(launch.id).toBe(shared.launchId);
    const { pipeline } = await expectAnswer(
      e,
      "GET /pipelines/{pipelineId}",
      `/pipelines/${shared.id}?workspaceId=43&sourceWorkspaceId=42`,
    );
    expect(pipeline).toMatchObject({ name: "rnaseq", workspaceId: 42, visibility: "SHARED" });
    const body = { launch: { id: launch.id, pipeline: launch.pipeline, computeEnvId: "ce43" } };
    await expectAnswer(e, "POST /workflow/launch", "/workflow/launch?workspaceId=43", {
      body,
      status: 403,
    });
    const { workflowId } = await expectAnswer(
      e,
      "POST /workflow/launch",
      "/workflow/launch?workspaceId=43&sourceWorkspaceId=42",
      { body },
    );
    expect(e.state.runs.get(workflowId)).toMatchObject({ workspaceId: 43, pipelineId: shared.id });
    // A private pipeline of the source workspace stays private.
    const hidden = e.state.pipelines.byName("rnaseq-private", 42)!;
    await expectAnswer(
      e,
      "GET /pipelines/{pipelineId}/launch",
      `/pipelines/${hidden.id}/launch?workspaceId=43&sourceWorkspaceId=42`,
      { status: 403 },
    );
  });
});

describe("compute envs and labels for a launch", () => {
  test("status=AVAILABLE leaves out an errored primary", async () => {
    const e = await start();
    const { computeEnvs } = await expectAnswer(
      e,
      "GET /compute-envs",
      "/compute-envs?workspaceId=43&status=AVAILABLE",
    );
    expect(computeEnvs.map((c: any) => [c.id, c.primary])).toEqual([["ce43", false]]);
  });

  test("labels created with POST /labels are found by name and type, and launch with the run", async () => {
    const e = await start();
    const plain = await expectAnswer(e, "POST /labels", "/labels?workspaceId=43", {
      body: { name: "nightly" },
    });
    const resource = await expectAnswer(e, "POST /labels", "/labels?workspaceId=43", {
      body: { name: "team", value: "genomics", resource: true },
    });
    expect(resource).toMatchObject({ name: "team", value: "genomics", resource: true });
    await expectAnswer(e, "POST /labels", "/labels?workspaceId=43", {
      body: { name: "nightly" },
      status: 409,
    });
    const found = await expectAnswer(
      e,
      "GET /labels",
      "/labels?workspaceId=43&search=night&type=simple",
    );
    expect(found.labels.map((l: any) => l.id)).toEqual([plain.id]);
    const resources = await expectAnswer(e, "GET /labels", "/labels?workspaceId=43&type=resource");
    expect(resources.labels.map((l: any) => [l.name, l.value])).toEqual([["team", "genomics"]]);
    const { workflowId } = await expectAnswer(
      e,
      "POST /workflow/launch",
      "/workflow/launch?workspaceId=43",
      {
        body: {
          launch: {
            pipeline: "https://github.com/nf-core/sarek",
            computeEnvId: "ce43",
            labelIds: [plain.id, resource.id],
          },
        },
      },
    );
    const { labels } = await expectAnswer(
      e,
      "GET /workflow/{workflowId}",
      `/workflow/${workflowId}?workspaceId=43`,
    );
    expect(labels.map((l: any) => l.name).sort()).toEqual(["nightly", "team"]);
  });
});
