/**
 * Converters: what the service answered (tw's recorded answers, and the emulator's) goes back
 * as a request the emulator's schema validation accepts, without nulls or fields the service
 * wrote.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  copyPipeline,
  find,
  toComputeEnvRequest,
  toCredentialsRequest,
  toLabelRequest,
  toPipelineRequest,
} from "../../src/index.js";
import { type PipelineLaunch } from "../../src/schema/types.js";
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
      config: { workDir: expect.any(String), discriminator: "aws-batch" },
    });
    // The source workspace's credentials are not the target's: sent only when mapped.
    expect(body.computeEnv).not.toHaveProperty("credentialsId");
    expect(
      toComputeEnvRequest(computeEnv, { credentialsId: "target-creds" }).computeEnv,
    ).toMatchObject({
      credentialsId: "target-creds",
    });
    expect(body.computeEnv!.config).not.toHaveProperty("forgedResources");
    expect(body.computeEnv).not.toHaveProperty("id");
    expect(body.computeEnv).not.toHaveProperty("status");
    expect(nullKeys(body)).toEqual([]);
  });

  test("a compute environment's config without the fields its platform's schema marks readOnly", () => {
    const body = toComputeEnvRequest({
      name: "azure",
      platform: "azure-batch",
      credentialsId: "source-creds",
      config: {
        discriminator: "azure-batch",
        workDir: "az://work",
        region: "westeurope",
        deleteJobsOnCompletion: "on_success",
        deletePoolsOnCompletion: true,
      },
    });
    expect(body).toEqual({
      computeEnv: {
        name: "azure",
        platform: "azure-batch",
        config: {
          discriminator: "azure-batch",
          workDir: "az://work",
          region: "westeurope",
          deletePoolsOnCompletion: true,
        },
      },
    });
  });

  test("a compute environment without name or platform is a ConfigurationError saying where to read it", () => {
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
    const summary = await find.computeEnv(client, "aws");
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

    const pipeline = await find.pipeline(client, "rnaseq");
    const { launch } = await client.GET("/pipelines/{pipelineId}/launch", {
      params: { path: { pipelineId: pipeline.pipelineId! } },
    });
    const created = await other.POST("/pipelines", {
      body: toPipelineRequest(pipeline, launch ?? {}, { computeEnvId }),
    });
    expect(created.pipeline).toMatchObject({ name: "rnaseq", workspaceId: 43 });
  });
});

describe("copyPipeline", () => {
  test("into a workspace whose compute environment has no work directory: the copy has none either", async () => {
    emulator.state.pipelines.add({
      name: "wgs",
      workspaceId: 42,
      launch: { workDir: "s3://source-bucket/work" },
    });
    const bare = emulator.state.computeEnvs.add({ name: "bare", workspaceId: 43, primary: true });
    // The target's compute environment as the service may describe it: no workDir configured.
    emulator.setHandler("DescribeComputeEnv", (request) =>
      request.params.computeEnvId === bare.id
        ? {
            status: 200,
            body: {
              computeEnv: {
                id: bare.id,
                name: "bare",
                platform: "aws-batch",
                status: "AVAILABLE",
                config: { discriminator: "aws-batch", region: "eu-west-1" },
              },
            },
          }
        : undefined,
    );
    try {
      const copied = await copyPipeline(clientOf(emulator), "wgs", { to: 43 });
      const created = emulator.requests.filter((r) => r.operationId === "CreatePipeline").at(-1)!;
      const { launch } = created.body as { launch: Record<string, unknown> };
      expect(copied).toMatchObject({ computeEnvId: bare.id, computeEnvBy: "primary" });
      expect(launch.computeEnvId).toBe(bare.id);
      // Not the source workspace's bucket: the service applies the compute environment's default.
      expect(launch).not.toHaveProperty("workDir");
    } finally {
      emulator.clearHandlers();
    }
  });
});
