/**
 * Pipeline versions as the service keeps them (its schema's descriptions, the versioning docs,
 * and the versions list recorded in tw's tests): adding a pipeline publishes its first version,
 * an edit of its launch is a draft, naming a draft publishes it, one published version is the
 * default, and `versionId` picks a version's saved launch.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startEmulator, type Emulator } from "../../src/testing/index.js";
import { RECORDED } from "../helpers/schema.js";
import { expectAnswer } from "./http.js";

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({
    rateLimit: false,
    seed: {
      workspaces: [{ org: "acme", name: "prod", id: 42 }],
      computeEnvs: [{ id: "ce1", name: "aws", workspaceId: 42, primary: true }],
      labels: [{ id: 5, name: "prod", workspaceId: 42 }],
      pipelines: [
        {
          id: 7,
          name: "rnaseq",
          workspaceId: 42,
          labelIds: [5],
          launch: { computeEnvId: "ce1", revision: "3.14.0" },
          versions: [
            { id: "v1", name: "3.14.0", dateCreated: "2026-01-01T00:00:00Z" },
            {
              id: "v2",
              name: "3.15.0",
              launch: { revision: "3.15.0" },
              dateCreated: "2026-02-01T00:00:00Z",
            },
            { id: "v3", launch: { revision: "dev" }, dateCreated: "2026-03-01T00:00:00Z" },
          ],
        },
      ],
    },
  });
});
afterAll(() => emulator.close());

const versions = (pipelineId: number, query = "") =>
  expectAnswer(
    emulator,
    "GET /pipelines/{pipelineId}/versions",
    `/pipelines/${pipelineId}/versions?workspaceId=42${query}`,
  );
const summary = (answer: {
  versions: { version: { name: string | null; isDefault: boolean } }[];
}) => answer.versions.map(({ version }) => [version.name, version.isDefault]);

describe("seeded versions", () => {
  test("listed oldest first with the recorded answer's fields; published or drafts by isPublished; search by name", async () => {
    const all = await versions(7);
    expect(summary(all)).toEqual([
      ["3.14.0", true],
      ["3.15.0", false],
      [null, false],
    ]);
    expect(all.totalSize).toBe(3);
    const recorded = JSON.parse(
      readFileSync(
        path.join(RECORDED, "tower-cli/get_pipelines_pipelineId_versions_200_5934b99dd4ce.json"),
        "utf8",
      ),
    );
    for (const key of Object.keys(recorded.versions[0].version)) {
      expect(all.versions[0].version).toHaveProperty(key);
    }
    expect(all.versions[0]).toMatchObject({ pipelineId: 7, name: "rnaseq" });
    expect(all.versions[0].version.hash).toMatch(/^JHY1O/);
    expect(summary(await versions(7, "&isPublished=true"))).toEqual([
      ["3.14.0", true],
      ["3.15.0", false],
    ]);
    expect(summary(await versions(7, "&isPublished=false"))).toEqual([[null, false]]);
    expect(summary(await versions(7, "&search=3.15"))).toEqual([["3.15.0", false]]);
  });

  test("the saved launch is the default version's; versionId picks another; an unknown one is 403", async () => {
    const launch = (query: string) =>
      expectAnswer(
        emulator,
        "GET /pipelines/{pipelineId}/launch",
        `/pipelines/7/launch?workspaceId=42${query}`,
      );
    expect((await launch("")).launch).toMatchObject({ id: "v1", revision: "3.14.0" });
    expect((await launch("&versionId=v2")).launch).toMatchObject({ id: "v2", revision: "3.15.0" });
    expect((await launch("&versionId=v3")).launch).toMatchObject({ id: "v3", revision: "dev" });
    await expectAnswer(
      emulator,
      "GET /pipelines/{pipelineId}/launch",
      "/pipelines/7/launch?workspaceId=42&versionId=nope",
      { status: 403 },
    );
  });

  test("a seed with two defaults, a default draft, a repeated name or a misspelt key is refused", async () => {
    const seeded = (versions: object[]) =>
      startEmulator({ seed: { pipelines: [{ name: "p", versions }] } });
    await expect(
      seeded([
        { name: "a", isDefault: true },
        { name: "b", isDefault: true },
      ]),
    ).rejects.toThrow("at most one version is the default");
    await expect(seeded([{ isDefault: true }])).rejects.toThrow("a draft cannot be");
    await expect(seeded([{ name: "a" }, { name: "a" }])).rejects.toThrow("the same name");
    // A misspelt key of a version is refused, naming the key meant.
    await expect(seeded([{ name: "a", isDefualt: true }])).rejects.toThrow(
      /isDefualt[\s\S]*isDefault/,
    );
  });
});

describe("a version's life", () => {
  test("add (first version published, default), edit (a draft; the same edit again is that draft), publish, make default, launch it", async () => {
    const created = await expectAnswer(emulator, "POST /pipelines", "/pipelines?workspaceId=42", {
      body: {
        name: "sarek",
        launch: { pipeline: "https://github.com/nf-core/sarek", revision: "3.4.0" },
        version: { name: "3.4.0" },
      },
    });
    const id = created.pipeline.pipelineId as number;
    expect(summary(await versions(id))).toEqual([["3.4.0", true]]);

    const edit = () =>
      expectAnswer(emulator, "PUT /pipelines/{pipelineId}", `/pipelines/${id}?workspaceId=42`, {
        body: { launch: { revision: "3.5.0" } },
      });
    const draft = (await edit()).pipeline.version;
    expect(draft).toMatchObject({ name: null, isDefault: false });
    expect((await edit()).pipeline.version.id).toBe(draft.id);
    expect(summary(await versions(id))).toEqual([
      ["3.4.0", true],
      [null, false],
    ]);

    const manage = (versionId: string, body: object, status = 204) =>
      expectAnswer(
        emulator,
        "PUT /pipelines/{pipelineId}/versions/{versionId}/manage",
        `/pipelines/${id}/versions/${versionId}/manage?workspaceId=42`,
        { body, status },
      );
    // A draft cannot be the default until it is named; a taken name is a conflict.
    await manage(draft.id, { isDefault: true }, 400);
    await manage(draft.id, { name: "3.4.0" }, 409);
    await manage(draft.id, { name: "3.5.0", isDefault: true });
    expect(summary(await versions(id))).toEqual([
      ["3.4.0", false],
      ["3.5.0", true],
    ]);
    // The default cannot be unset, only replaced.
    await manage(draft.id, { isDefault: false }, 409);
    await manage("nope", { isDefault: true }, 404);

    const { launch } = await expectAnswer(
      emulator,
      "GET /pipelines/{pipelineId}/launch",
      `/pipelines/${id}/launch?workspaceId=42`,
    );
    expect(launch).toMatchObject({ id: draft.id, revision: "3.5.0" });
    const { workflowId } = await expectAnswer(
      emulator,
      "POST /workflow/launch",
      "/workflow/launch?workspaceId=42",
      { body: { launch: { id: launch.id, revision: launch.revision, computeEnvId: "ce1" } } },
    );
    expect(emulator.state.runs.get(workflowId)).toMatchObject({ pipelineId: id });
    // A version runs were launched from keeps its name.
    await manage(draft.id, { name: "renamed" }, 409);
  });

  test("version names are validated as the service's validate operation says", async () => {
    const validate = (name: string, status: number) =>
      expectAnswer(
        emulator,
        "GET /pipelines/{pipelineId}/versions/validate",
        `/pipelines/7/versions/validate?workspaceId=42&name=${encodeURIComponent(name)}`,
        { status },
      );
    await validate("4.0.0", 204);
    await validate("3.14.0", 409);
    await validate(" padded", 400);
    await validate("x".repeat(256), 400);
  });

  test("an update without labelIds removes the pipeline's labels, as the schema says", async () => {
    const labels = async () =>
      (
        await expectAnswer(emulator, "GET /pipelines/{pipelineId}", "/pipelines/7?workspaceId=42")
      ).pipeline.labels.map((l: { id: number }) => l.id);
    await expectAnswer(emulator, "PUT /pipelines/{pipelineId}", "/pipelines/7?workspaceId=42", {
      body: { description: "kept labels", labelIds: [5] },
    });
    expect(await labels()).toEqual([5]);
    await expectAnswer(emulator, "PUT /pipelines/{pipelineId}", "/pipelines/7?workspaceId=42", {
      body: { description: "no labels" },
    });
    expect(await labels()).toEqual([]);
  });

  test("UpdatePipelineVersion edits a draft in place and a published version into a new draft", async () => {
    const update = (versionId: string, revision: string) =>
      expectAnswer(
        emulator,
        "POST /pipelines/{pipelineId}/versions/{versionId}",
        `/pipelines/7/versions/${versionId}?workspaceId=42`,
        { body: { launch: { revision } } },
      );
    expect((await update("v3", "dev2")).pipeline.version).toMatchObject({ id: "v3", name: null });
    const fresh = (await update("v2", "3.15.1")).pipeline.version;
    expect(fresh.id).not.toMatch(/^v[123]$/);
    expect(
      emulator.state.pipelines.get(7)!.versions.find((v) => v.id === "v2")!.launch,
    ).toMatchObject({ revision: "3.15.0" });
  });
});
