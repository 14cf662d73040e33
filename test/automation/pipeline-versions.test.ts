/**
 * A Launchpad version by name is looked up with GET /pipelines/{pipelineId}/versions, which
 * appears in 1.140.0. `npm run test:releases` runs this file on every release: each release
 * takes the branch of what it has, and either branch fails if the helper misbehaves there.
 */
import { expect, test } from "vitest";
import { hasOperation, launchPipeline, UnsupportedOperationError } from "../../src/index.js";
import { SCHEMA_VERSION } from "../../generated/version.js";
import { twMockPerTest, twResource } from "../tower-cli/mock-server.js";

const twMock = twMockPerTest();
const SAREK_ID = "250911634275687";
const findSarek = {
  method: "GET",
  path: "/pipelines",
  query: { search: "sarek" },
  answer: twResource("pipelines_sarek"),
};

test("a version by name: looked up where the release has versions, refused before any launch where not", async () => {
  const mock = twMock();
  const hasVersions = hasOperation("GET /pipelines/{pipelineId}/versions");
  if (hasVersions) {
    mock.expect(
      findSarek,
      {
        method: "GET",
        path: `/pipelines/${SAREK_ID}/versions`,
        query: { search: "release-1.0", isPublished: "true" },
        answer: { versions: [{ version: { id: "v1", name: "release-1.0" } }], totalSize: 1 },
      },
      {
        method: "GET",
        path: `/pipelines/${SAREK_ID}/launch`,
        query: { versionId: "v1" },
        answer: twResource("pipeline_launch_describe"),
      },
      { method: "POST", path: "/workflow/launch", answer: twResource("workflow_launch") },
    );
  } else {
    mock.expect(findSarek);
  }
  const launch = launchPipeline(mock.client(), "sarek", { versionName: "release-1.0" });
  if (hasVersions) {
    await expect(launch).resolves.toMatchObject({ workflowId: expect.any(String) });
  } else {
    await expect(launch).rejects.toThrow(UnsupportedOperationError);
    await expect(launch).rejects.toThrow(
      `GET /pipelines/{pipelineId}/versions is not in API ${SCHEMA_VERSION}`,
    );
  }
  // Every expected request came, and nothing else (no launch on a release without versions).
  mock.verify();
});
