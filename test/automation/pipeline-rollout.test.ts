/**
 * Pipeline versions end to end against the emulator: listed with their revisions, created from
 * a revision, named, launched by name, made the default; pipeline updates keep the labels.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import {
  ConfigurationError,
  NameNotFoundError,
  launchPipeline,
  pipelineVersions,
  updatePipeline,
} from "../../src/index.js";
import type { Emulator } from "../../src/testing/index.js";
import { failure } from "../helpers/calls.js";
import { VERSIONED_PIPELINE, clientOf, seededEmulator, servedSince } from "./setup.js";

let emulator: Emulator;
beforeAll(async () => {
  emulator = await seededEmulator(VERSIONED_PIPELINE);
});
afterAll(() => emulator.close());

const lastBody = (operationId: string) =>
  emulator.requests.filter((r) => r.operationId === operationId).at(-1)!.body as any;

test("a rollout: a version from a revision, named; launched by name; made the default; labels kept throughout", async () => {
  const client = clientOf(emulator);
  const created = await pipelineVersions.create(client, "rnaseq", {
    revision: "3.15.0",
    name: "3.15.0",
  });
  expect(created).toMatchObject({
    pipelineId: 7,
    name: "3.15.0",
    draft: false,
    isDefault: false,
    revision: "3.15.0",
  });
  // The saved launch goes back whole with the revision changed, and the labels with it.
  expect(lastBody("UpdatePipeline")).toMatchObject({
    labelIds: [5],
    launch: { computeEnvId: "ce1", revision: "3.15.0", paramsText: '{"genome":"GRCh38"}' },
  });
  expect(lastBody("ManagePipelineVersion")).toEqual({ name: "3.15.0" });

  const listed = await pipelineVersions.list(client, "rnaseq");
  expect(listed.map((v) => [v.name, v.revision, v.isDefault, v.draft])).toEqual([
    ["3.14.0", "3.14.0", true, false],
    ["3.15.0", "3.15.0", false, false],
  ]);

  const { workflowId } = await launchPipeline(client, "rnaseq", { versionName: "3.15.0" });
  expect(lastBody("CreateWorkflowLaunch").launch).toMatchObject({
    id: created.versionId,
    revision: "3.15.0",
  });
  expect(emulator.state.runs.get(workflowId)).toMatchObject({ pipelineId: 7 });

  await pipelineVersions.makeDefault(client, "rnaseq", { versionName: "3.15.0" });
  await launchPipeline(client, "rnaseq");
  expect(lastBody("CreateWorkflowLaunch").launch).toMatchObject({ revision: "3.15.0" });
  expect(emulator.state.pipelines.get(7)!.labelIds).toEqual([5]);
});

test("list: one versions page, then one saved launch per version; drafts alone with published: false", async () => {
  const client = clientOf(emulator);
  await updatePipeline(client, 7, { revision: "dev" });
  const from = emulator.requests.length;
  const drafts = await pipelineVersions.list(client, 7, { published: false });
  expect(drafts.map((v) => [v.name, v.revision, v.draft])).toEqual([[null, "dev", true]]);
  expect(servedSince(emulator, from)).toEqual(["ListPipelineVersions", "DescribePipelineLaunch"]);
});

test("updatePipeline keeps the labels and the launch it does not change; labels given replace them", async () => {
  const client = clientOf(emulator);
  const before = emulator.state.pipelines.get(7)!.versions.length;
  await updatePipeline(client, "rnaseq", { description: "RNA-seq" });
  expect(emulator.state.pipelines.get(7)).toMatchObject({ description: "RNA-seq", labelIds: [5] });
  // Nothing of the launch changed: no new version.
  expect(emulator.state.pipelines.get(7)!.versions).toHaveLength(before);
  await updatePipeline(client, "rnaseq", { labels: ["production", "rna"] });
  const names = emulator.state.pipelines
    .get(7)!
    .labelIds.map((id) => emulator.state.labels.get(id)!.name);
  expect(names).toEqual(["production", "rna"]);
});

test("a version of a repository URL is refused before any call: versions are a Launchpad pipeline's", async () => {
  const from = emulator.requests.length;
  const error = await failure(
    launchPipeline(clientOf(emulator), "https://github.com/nf-core/rnaseq", { versionName: "1" }),
  );
  expect(error).toBeInstanceOf(ConfigurationError);
  expect((error as Error).message).toContain("name the pipeline, not its repository URL");
  expect(servedSince(emulator, from)).toEqual([]);
});

test("a version name not found names the near published ones, and the workspace as it was given", async () => {
  const client = clientOf(emulator, { workspaceId: "acme/prod" });
  const error = await failure(launchPipeline(client, "rnaseq", { versionName: "3.14" }));
  expect(error).toBeInstanceOf(NameNotFoundError);
  expect(error).toMatchObject({ candidates: ["3.14.0"], workspaceId: "42" });
  expect((error as Error).message).toBe(
    'No published version named "3.14" of pipeline rnaseq in workspace acme/prod; did you mean "3.14.0"?',
  );
});

test("a taken version name is refused before the draft is made: a ConfigurationError, no version added", async () => {
  const client = clientOf(emulator);
  const versions = emulator.state.pipelines.get(7)!.versions.length;
  const from = emulator.requests.length;
  const error = await failure(
    pipelineVersions.create(client, "rnaseq", { revision: "9.0.0", name: "3.14.0" }),
  );
  expect(error).toBeInstanceOf(ConfigurationError);
  expect((error as Error).message).toBe(
    'Pipeline rnaseq already has a version named "3.14.0": give the new version another name.',
  );
  expect(emulator.state.pipelines.get(7)!.versions).toHaveLength(versions);
  expect(servedSince(emulator, from)).not.toContain("UpdatePipeline");
});

test("a version name found on the second page of the search: every page is read", async () => {
  const many = Array.from({ length: 105 }, (_, i) => ({ id: `m${i}`, name: `1.0.${i}` }));
  const emu = await seededEmulator({
    computeEnvs: VERSIONED_PIPELINE.computeEnvs,
    pipelines: [
      {
        id: 8,
        name: "many",
        workspaceId: 42,
        launch: { computeEnvId: "ce1", revision: "1.0" },
        // Oldest first: "1.0" comes after the 105 names it is part of.
        versions: [...many, { id: "target", name: "1.0" }],
      },
    ],
  });
  // The service caps a page at 100 items, asked for or not.
  emu.setHandler("ListPipelineVersions", (request) => {
    request.query.max = Math.min(Number(request.query.max ?? 100), 100);
    return undefined;
  });
  try {
    await launchPipeline(clientOf(emu), "many", { versionName: "1.0" });
    const launch = emu.requests.filter((r) => r.operationId === "CreateWorkflowLaunch").at(-1)!;
    expect((launch.body as { launch: { id: string } }).launch.id).toBe("target");
  } finally {
    await emu.close();
  }
});
