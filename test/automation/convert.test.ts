/**
 * Converters: what the service answered (tw's recorded answers, and the emulator's) goes back
 * as a request the emulator's schema validation accepts, without nulls or fields the service
 * wrote.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  findComputeEnv,
  findPipeline,
  toComputeEnvRequest,
  toCredentialsRequest,
  toLabelRequest,
  toPipelineRequest,
} from "../../src/index.js";
import { type PipelineLaunch } from "../../src/automation/schema.js";
import type { Emulator } from "../../src/testing/index.js";
import { twResource } from "../tower-cli/mock-server.js";
import { clientOf, seededEmulator } from "./setup.js";

let emulator: Emulator;
beforeAll(async () => {
  emulator = await seededEmulator({
    computeEnvs: [{ name: "aws", workspaceId: 42, primary: true }],
    pipelines: [{ name: "rnaseq", workspaceId: 42 }],
  });
});
afterAll(() => emulator.close());

/** Every key of a JSON value, nested ones included, whose value is null. */
function nullKeys(value: unknown, at = ""): string[] {
  if (value === null) return [at];
  if (typeof value !== "object") return [];
  return Object.entries(value).flatMap(([k, v]) => nullKeys(v, `${at}.${k}`));
}

describe("from tw's recorded answers", () => {
  test("a compute environment: name, platform, config without nulls or forged resources", () => {
    const { computeEnv } = twResource("compute_env_view") as { computeEnv: object };
    const body = toComputeEnvRequest(computeEnv, { name: "copy" });
    expect(body.computeEnv).toMatchObject({
      name: "copy",
      platform: "aws-batch",
      credentialsId: expect.any(String),
      config: { workDir: expect.any(String), discriminator: "aws-batch" },
    });
    expect(body.computeEnv!.config).not.toHaveProperty("forgedResources");
    expect(body.computeEnv).not.toHaveProperty("id");
    expect(body.computeEnv).not.toHaveProperty("status");
    expect(nullKeys(body)).toEqual([]);
  });

  test("a compute environment without name or platform is a TypeError saying where to read it", () => {
    expect(() => toComputeEnvRequest({ name: "x" })).toThrow(
      "toComputeEnvRequest: the compute environment has no name, platform or config; read it with GET /compute-envs/{computeEnvId}",
    );
  });

  test("a pipeline and its launch: the launch without what belongs to its workspace", () => {
    const { pipelines } = twResource("pipelines_sarek") as { pipelines: object[] };
    const { launch } = twResource("pipeline_launch_describe") as { launch: PipelineLaunch };
    const body = toPipelineRequest(pipelines[0]!, launch);
    expect(body).toEqual({
      name: "sarek",
      launch: {
        computeEnvId: "4X7YrYJp9B1d1DUpfur7DS",
        pipeline: "https://github.com/nf-core/sarek",
        workDir: "/efs",
        pullLatest: false,
        stubRun: false,
      },
    });
  });

  test("labels, and credentials' metadata with keys given", () => {
    const { labels } = twResource("labels_user") as { labels: object[] };
    expect(labels.map(toLabelRequest)).toEqual([
      { name: "LabelOne", resource: false, isDefault: false },
      { name: "LabelTwo", resource: false, isDefault: false },
      { name: "ResourceLabelOne", value: "ValueOne", resource: true, isDefault: false },
      { name: "ResourceLabelTwo", value: "ValueTwo", resource: true, isDefault: false },
    ]);
    const read = {
      id: "c1",
      name: "keys",
      provider: "aws" as const,
      description: null,
      keys: null,
    };
    expect(
      toCredentialsRequest(read, { discriminator: "aws", accessKey: "a", secretKey: "s" }),
    ).toEqual({
      credentials: {
        name: "keys",
        provider: "aws",
        keys: { discriminator: "aws", accessKey: "a", secretKey: "s" },
      },
    });
  });
});

describe("round trips the emulator's validation accepts", () => {
  test("a compute environment and a pipeline copied to another workspace", async () => {
    const client = clientOf(emulator);
    const summary = await findComputeEnv(client, "aws");
    const { computeEnv } = await client.GET("/compute-envs/{computeEnvId}", {
      params: { path: { computeEnvId: summary.id! } },
    });
    const other = client.withWorkspace(43);
    const { computeEnvId } = await other.POST("/compute-envs", {
      body: toComputeEnvRequest(computeEnv ?? {}),
    });
    expect(emulator.state.computeEnvs.get(computeEnvId!)).toMatchObject({
      name: "aws",
      workspaceId: 43,
    });

    const pipeline = await findPipeline(client, "rnaseq");
    const { launch } = await client.GET("/pipelines/{pipelineId}/launch", {
      params: { path: { pipelineId: pipeline.pipelineId! } },
    });
    const created = await other.POST("/pipelines", {
      body: toPipelineRequest(pipeline, launch ?? {}, { computeEnvId }),
    });
    expect(created.pipeline).toMatchObject({ name: "rnaseq", workspaceId: 43 });
  });
});
