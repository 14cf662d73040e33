import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { toLaunchRequest } from "../../src/index.js";
import { type PipelineLaunch, type RunLaunch } from "../../src/schema/types.js";
import { KNOWN_FIELDS } from "../../generated/copies.js";
import { RECORDED as recorded, ROOT } from "../helpers/schema.js";

// Launch configurations as the service answered them (recorded by the tw CLI), read from the
// shared evidence at test time.
const manifest = JSON.parse(await readFile(path.join(recorded, "manifest.json"), "utf8")) as {
  fixtures: { file: string; path: string; status: number }[];
};
const bodies = async (template: string) =>
  Promise.all(
    manifest.fixtures
      .filter((f) => f.path === template && f.status === 200)
      .map(async (f) => JSON.parse(await readFile(path.join(recorded, f.file), "utf8"))),
  );

const openapi = JSON.parse(await readFile(path.join(ROOT, "generated/openapi.json"), "utf8"));
const requestFields = Object.keys(openapi.components.schemas.WorkflowLaunchRequest.properties);

describe("toLaunchRequest: a launch as read becomes a launch request body", () => {
  test.each([
    ["a pipeline's saved launch", "/pipelines/{pipelineId}/launch"],
    ["an earlier run's launch", "/workflow/{workflowId}/launch"],
  ])("%s", async (_what, template) => {
    const launches = (await bodies(template)).map((b) => b.launch as PipelineLaunch | RunLaunch);
    expect(launches.length).toBeGreaterThan(0);
    for (const launch of launches) {
      const request = toLaunchRequest(launch);
      // The request's fields, and those of a newer server this release does not list at all
      // (recorded bodies come from servers newer than the oldest releases); none null.
      const newer = Object.keys(launch).filter(
        (k) => !KNOWN_FIELDS.launch!.includes(k) && (launch as Record<string, unknown>)[k] != null,
      );
      expect(Object.keys(request).filter((k) => !requestFields.includes(k))).toEqual(newer);
      expect(Object.entries(request).filter(([, v]) => v === null)).toEqual([]);
      expect(request.computeEnvId).toBe(launch.computeEnv?.id);
      expect(request).toMatchObject({ pipeline: launch.pipeline, id: launch.id });
      if (launch.paramsText != null) expect(request.paramsText).toBe(launch.paramsText);
      expect(request).not.toHaveProperty("computeEnv");
      expect(request).not.toHaveProperty("dateCreated");
    }
  });
});

describe("toLaunchRequest: a saved launch from a service newer than this release", () => {
  const knownElsewhere = ["resumeDir", "resumeCommitId", "lastUpdated", "resumeLaunchId"];

  test("a field this release lists nowhere is sent back; the saved launch's own fields are not", () => {
    const request = toLaunchRequest({
      pipeline: "https://github.com/nf-core/rnaseq",
      computeEnv: { id: "ce1" },
      resumeDir: "s3://work/ab",
      resumeCommitId: "abc123",
      lastUpdated: "2026-07-01T00:00:00Z",
      resumeLaunchId: "l0",
      dateCreated: "2026-07-01T00:00:00Z",
      sessionId: "s1",
      // What a later release adds (as 1.187.0 added nextflowVersion): a setting and a null one.
      gpuQuota: { count: 2 },
      cacheStrategy: null,
    } as unknown as RunLaunch);
    expect(request).toEqual({
      pipeline: "https://github.com/nf-core/rnaseq",
      computeEnvId: "ce1",
      gpuQuota: { count: 2 },
    });
    for (const field of knownElsewhere) expect(requestFields).not.toContain(field);
  });
});
