import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { NextflowVersionError, launchPipeline, relaunchRun } from "../../src/index.js";
import type { Emulator } from "../../src/testing/index.js";
import { EXIT } from "../../src/cli/exit-codes.js";
import { runCli, sharedBuild, towerEnv, type BuiltCli } from "../cli/cli.js";
import { clientOf, seededEmulator, servedSince } from "./setup.js";

let emulator: Emulator;
beforeAll(async () => {
  emulator = await seededEmulator({
    computeEnvs: [
      { id: "ce-aws", name: "aws", workspaceId: 42, primary: true, platform: "aws-batch" },
      { id: "ce-k8s", name: "k8s", workspaceId: 42, primary: false, platform: "k8s-platform" },
    ],
    pipelines: [
      {
        name: "rnaseq",
        workspaceId: 42,
        repository: "https://github.com/nf-core/rnaseq",
        launch: { computeEnvId: "ce-aws", revision: "3.14.0" },
      },
    ],
    nextflow: {
      versions: ["24.04.4", "24.10.6", "25.04.8"],
      minVersions: { "aws-batch": "24.10.0" },
    },
  });
});
afterAll(() => emulator.close());

const lastLaunch = () =>
  emulator.requests.filter((r) => r.operationId === "CreateWorkflowLaunch").at(-1)?.body as {
    launch: Record<string, unknown>;
  };

describe("launchPipeline's nextflowVersion, checked against GET /platform/versions first", () => {
  test("a version of the catalog that meets the type's minimum is sent", async () => {
    const client = clientOf(emulator);
    const from = emulator.requests.length;
    const { workflowId } = await launchPipeline(client, "rnaseq", { nextflowVersion: "25.04.8" });
    // The compute environment's type, then the catalog, then the launch.
    expect(servedSince(emulator, from).slice(-3)).toEqual([
      "DescribeComputeEnv",
      "NextflowVersions",
      "CreateWorkflowLaunch",
    ]);
    expect(lastLaunch().launch.nextflowVersion).toBe("25.04.8");
    expect(emulator.state.runs.get(workflowId)).toBeDefined();
  });

  test("the catalog and the compute environment's type are read once per client family", async () => {
    const client = clientOf(emulator);
    const from = emulator.requests.length;
    await Promise.all(
      [1, 2, 3].map(() => launchPipeline(client, "rnaseq", { nextflowVersion: "25.04.8" })),
    );
    await launchPipeline(client.withWorkspace(42), "rnaseq", { nextflowVersion: "24.10.6" });
    const served = servedSince(emulator, from);
    expect(served.filter((id) => id === "NextflowVersions")).toHaveLength(1);
    expect(served.filter((id) => id === "DescribeComputeEnv")).toHaveLength(1);
    expect(served.filter((id) => id === "CreateWorkflowLaunch")).toHaveLength(4);
  });

  test("a version the catalog lacks: NextflowVersionError naming the choices, nothing launched", async () => {
    const client = clientOf(emulator);
    const from = emulator.requests.length;
    const failure = await launchPipeline(client, "rnaseq", { nextflowVersion: "23.10.1" }).catch(
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(NextflowVersionError);
    expect((failure as Error).message).toBe(
      "Nextflow 23.10.1 is not in the service's catalog (GET /platform/versions): choose one of 24.04.4, 24.10.6, 25.04.8.",
    );
    expect(servedSince(emulator, from)).not.toContain("CreateWorkflowLaunch");
  });

  test("below the compute environment type's minimum: the error says which versions fit", async () => {
    const client = clientOf(emulator);
    const from = emulator.requests.length;
    const failure = await launchPipeline(client, "rnaseq", { nextflowVersion: "24.04.4" }).catch(
      (e: unknown) => e,
    );
    expect(failure).toMatchObject({
      name: "NextflowVersionError",
      message:
        "Nextflow 24.04.4 is below 24.10.0, the minimum for aws-batch compute environments: choose one of 24.10.6, 25.04.8.",
      version: "24.04.4",
      computeEnvType: "aws-batch",
      minVersion: "24.10.0",
    });
    expect(servedSince(emulator, from)).not.toContain("CreateWorkflowLaunch");
    // Another type has no minimum: the same version launches there.
    await launchPipeline(client, "rnaseq", { nextflowVersion: "24.04.4", computeEnv: "k8s" });
    expect(lastLaunch().launch).toMatchObject({
      nextflowVersion: "24.04.4",
      computeEnvId: "ce-k8s",
    });
  });

  test("a relaunch keeps the saved version, and may choose another (checked too)", async () => {
    const client = clientOf(emulator);
    const { workflowId } = await launchPipeline(client, "rnaseq", { nextflowVersion: "24.10.6" });
    emulator.state.runs.finish(workflowId, "FAILED");
    await relaunchRun(client, workflowId, { resume: false });
    expect(lastLaunch().launch.nextflowVersion).toBe("24.10.6");
    await expect(
      relaunchRun(client, workflowId, { resume: false, nextflowVersion: "24.04.4" }),
    ).rejects.toThrow(NextflowVersionError);
  });
});

describe("seqera-api launch --nextflow-version", () => {
  let cli: BuiltCli;
  beforeAll(async () => {
    cli = await sharedBuild();
  });
  const seqera = (args: string[]) =>
    runCli(cli.main, args, {
      env: towerEnv(emulator, "42"),
    });

  test("a version of the catalog: launched with it, exit 0", async () => {
    const result = await seqera(["launch", "rnaseq", "--nextflow-version", "24.10.6"]);
    expect(result.code).toBe(EXIT.ok);
    expect(lastLaunch().launch.nextflowVersion).toBe("24.10.6");
  });

  test("below the minimum: exit 2, one line saying what to choose, nothing launched", async () => {
    const before = emulator.requests.length;
    const result = await seqera(["launch", "rnaseq", "--nextflow-version", "24.04.4"]);
    expect(result.code).toBe(EXIT.usage);
    expect(result.stderr).toBe(
      "seqera-api: Nextflow 24.04.4 is below 24.10.0, the minimum for aws-batch compute environments: choose one of 24.10.6, 25.04.8.\n",
    );
    expect(servedSince(emulator, before)).not.toContain("CreateWorkflowLaunch");
  });
});
