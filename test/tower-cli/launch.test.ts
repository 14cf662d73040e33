/**
 * tw's LaunchCmdTest (seqeralabs/tower-cli src/test/java/io/seqera/tower/cli/LaunchCmdTest.java)
 * ported to the library: given the answers tw's tests serve, launchPipeline sends the requests
 * tw sends. Each test names the tw test it ports.
 */
import { beforeEach, describe, expect, test } from "vitest";
import {
  AmbiguousNameError,
  NameNotFoundError,
  RunFailedError,
  SeqeraApiError,
  launchPipeline,
} from "../../src/index.js";
import { twMockPerTest, twResource, type TwMock } from "./mock-server.js";

const twMock = twMockPerTest();
let mock: TwMock;
beforeEach(() => {
  mock = twMock();
});

const SAREK_ID = "250911634275687";
/** tw's launch searches the pipeline by name among every one the workspace sees. */
const findSarek = {
  method: "GET",
  path: "/pipelines",
  query: { search: "sarek", visibility: "all", max: "50", offset: "0" },
  answer: twResource("pipelines_sarek"),
};
const describeSarek = {
  method: "GET",
  path: `/pipelines/${SAREK_ID}/launch`,
  answer: twResource("pipeline_launch_describe"),
};
/** What tw sends for sarek's saved launch (pipeline_launch_describe), nothing changed. */
const SAREK_LAUNCH = {
  id: "5nmCvXcarkvv8tELMF4KyY",
  computeEnvId: "4X7YrYJp9B1d1DUpfur7DS",
  pipeline: "https://github.com/nf-core/sarek",
  workDir: "/efs",
  pullLatest: false,
  stubRun: false,
};
const launched = (body: object) => ({
  method: "POST",
  path: "/workflow/launch",
  body: { launch: body },
  answer: twResource("workflow_launch"),
});

/** A compute environment list and description as tw's tests write them (inline there). */
const AVAILABLE_ENVS = {
  computeEnvs: [
    {
      id: "1uJweHHZTo7gydE6pyDt7x",
      name: "demo",
      platform: "aws-batch",
      status: "AVAILABLE",
      primary: true,
    },
    {
      id: "53aWhB2qJroy0i51FOrFAC",
      name: "manual",
      platform: "aws-batch",
      status: "AVAILABLE",
      primary: null,
    },
  ],
};
const describedEnv = (id: string, workDir: string, extra: object = {}) => ({
  computeEnv: {
    id,
    name: "demo",
    platform: "aws-batch",
    status: "AVAILABLE",
    config: {
      discriminator: "aws-batch",
      workDir,
      preRunScript: null,
      postRunScript: null,
      ...extra,
    },
  },
});

/** tw's mockGithubLaunch: the AVAILABLE compute envs, then the primary one described. */
const PRIMARY_ENV = [
  { method: "GET", path: "/compute-envs", query: { status: "AVAILABLE" }, answer: AVAILABLE_ENVS },
  {
    method: "GET",
    path: "/compute-envs/1uJweHHZTo7gydE6pyDt7x",
    answer: describedEnv("1uJweHHZTo7gydE6pyDt7x", "s3://nextflow-ci/jordeu"),
  },
];

describe("tw LaunchCmdTest, ported", () => {
  test("testSubmitLaunchpadPipeline: the saved launch as it is, optimization kept", async () => {
    mock.expect(
      findSarek,
      describeSarek,
      launched({
        ...SAREK_LAUNCH,
        optimizationId: "rOYdwTnmTaRCJjUq",
        optimizationTargets: "cpus, memory",
      }),
    );
    const result = await launchPipeline(mock.client(), "sarek");
    expect(result).toEqual({ workflowId: "35aLiS0bIM5efd", createdLabels: [] });
    mock.verify();
  });

  test("testSubmitLaunchpadPipelineKeepsStoredLaunchConfiguration: no sessionId, no resume", async () => {
    // tw's resource (pipeline_launch_describe_v2) is not among the recorded answers: our own.
    const saved = {
      ...(twResource("pipeline_launch_describe") as { launch: object }).launch,
      pipelineSchemaId: 42,
      launchContainer: "quay.io/seqeralabs/nf-launcher:j17-24.10.0",
      outputDir: "/outputs",
      syntaxParser: "v2",
      sessionId: "d77a5ac4-1a25-45d6-bab0-358605abc332",
      resume: true,
      commitId: "89bf536ce4faa98b4d50a8ec0a0343780bc62e0a",
    };
    mock.expect(findSarek, { ...describeSarek, answer: { launch: saved } });
    mock.expect(
      launched({
        ...SAREK_LAUNCH,
        pipelineSchemaId: 42,
        launchContainer: "quay.io/seqeralabs/nf-launcher:j17-24.10.0",
        outputDir: "/outputs",
        syntaxParser: "v2",
      }),
    );
    await launchPipeline(mock.client(), "sarek");
    mock.verify();
    const [body] = mock.bodies("POST", "/workflow/launch") as { launch: object }[];
    expect(body!.launch).not.toHaveProperty("sessionId");
    expect(body!.launch).not.toHaveProperty("resume");
    // The commit is never inherited: unset means the service resolves the revision.
    expect(body!.launch).not.toHaveProperty("commitId");
  });

  test("testSubmitLaunchpadPipelineOverridingNullableOptions: syntax parser, output dir", async () => {
    const saved = (twResource("pipeline_launch_describe") as { launch: object }).launch;
    mock.expect(findSarek, {
      ...describeSarek,
      answer: { launch: { ...saved, syntaxParser: "v2", outputDir: "/outputs" } },
    });
    mock.expect(launched({ ...SAREK_LAUNCH, syntaxParser: "v1", outputDir: "/new-outputs" }));
    await launchPipeline(mock.client(), "sarek", { syntaxParser: "v1", outputDir: "/new-outputs" });
    mock.verify();
  });

  test("testSubmitLaunchpadPipelineWithAdvancedOptions: every advanced setting sent", async () => {
    mock.expect(
      findSarek,
      describeSarek,
      launched({
        ...SAREK_LAUNCH,
        workDir: "/my_work_dir",
        revision: "develop",
        configProfiles: ["test", "docker"],
        configText: "extra_config",
        preRunScript: "pre_run_me",
        postRunScript: "post_run_me",
        mainScript: "alternate.nf",
        entryName: "dsl2",
        schemaName: "my_schema.json",
        pullLatest: true,
        stubRun: true,
      }),
    );
    await launchPipeline(mock.client(), "sarek", {
      configProfiles: ["test", "docker"],
      revision: "develop",
      workDir: "/my_work_dir",
      configText: "extra_config",
      pullLatest: true,
      stubRun: true,
      preRunScript: "pre_run_me",
      postRunScript: "post_run_me",
      mainScript: "alternate.nf",
      entryName: "dsl2",
      schemaName: "my_schema.json",
      disableOptimization: true,
    });
    mock.verify();
    const [body] = mock.bodies("POST", "/workflow/launch") as { launch: object }[];
    expect(body!.launch).not.toHaveProperty("optimizationId");
  });

  test("testSubmitLaunchpadPipelineWithCustomName: the run name", async () => {
    mock.expect(
      findSarek,
      describeSarek,
      launched({ ...SAREK_LAUNCH, runName: "custom_run_name", optimizationId: "rOYdwTnmTaRCJjUq" }),
    );
    await launchPipeline(mock.client(), "sarek", { runName: "custom_run_name" });
    mock.verify();
  });

  test("testSubmitLaunchpadPipelineWithOptimizationDisabled: no optimizationId/targets", async () => {
    mock.expect(
      findSarek,
      describeSarek,
      launched({ ...SAREK_LAUNCH, runName: "custom_run_name" }),
    );
    await launchPipeline(mock.client(), "sarek", {
      runName: "custom_run_name",
      disableOptimization: true,
    });
    mock.verify();
    const [body] = mock.bodies("POST", "/workflow/launch") as { launch: object }[];
    expect(Object.keys(body!.launch)).not.toContain("optimizationId");
    expect(Object.keys(body!.launch)).not.toContain("optimizationTargets");
  });

  test("testSubmitLaunchpadPipelineWithLabels: found ones by id, missing ones created", async () => {
    mock.expect(findSarek, describeSarek, {
      method: "GET",
      path: "/labels",
      times: Infinity,
      answer: twResource("labels_user"),
    });
    mock.expect({
      method: "POST",
      path: "/labels",
      times: 2,
      respond: (request) => {
        const body = JSON.parse(request.body.toString()) as Record<string, unknown>;
        if (body.name === "LabelThree" && !("value" in body)) {
          return { body: { id: 3, name: "LabelThree", resource: false, isDefault: false } };
        }
        if (body.name === "ResourceLabelThree" && body.value === "ValueThree" && body.resource) {
          return {
            body: { id: 13, name: "ResourceLabelThree", value: "ValueThree", resource: true },
          };
        }
        return { status: 400 };
      },
    });
    mock.expect(launched({ ...SAREK_LAUNCH, labelIds: [2, 3, 12, 13] }));
    const result = await launchPipeline(mock.client(), "sarek", {
      labels: [
        "LabelTwo",
        "LabelThree",
        "ResourceLabelTwo=ValueTwo",
        "ResourceLabelThree=ValueThree",
      ],
    });
    expect(result.createdLabels).toEqual(["LabelThree", "ResourceLabelThree=ValueThree"]);
    mock.verify();
    // Each label is searched by name and type, as tw's LabelsFinder asks.
    const searches = mock.server.requests
      .filter((r) => r.pathname === "/labels" && r.method === "GET")
      .map((r) => `${r.query.get("search")} ${r.query.get("type")}`);
    expect(searches).toEqual([
      "LabelTwo simple",
      "LabelThree simple",
      "ResourceLabelTwo resource",
      "ResourceLabelThree resource",
    ]);
  });

  test("testSubmitGithubPipeline: a URL on the AVAILABLE primary and its work dir", async () => {
    mock.expect(...PRIMARY_ENV, {
      method: "POST",
      path: "/workflow/launch",
      exactBody: {
        launch: {
          computeEnvId: "1uJweHHZTo7gydE6pyDt7x",
          pipeline: "https://github.com/nextflow-io/hello",
          workDir: "s3://nextflow-ci/jordeu",
        },
      },
      answer: { workflowId: "57ojrWRzTyous" },
    });
    const { workflowId } = await launchPipeline(
      mock.client(),
      "https://github.com/nextflow-io/hello",
    );
    expect(workflowId).toBe("57ojrWRzTyous");
    mock.verify();
  });

  test("testSubmitToAWorkspace: the workspace id on every call", async () => {
    const workspaceId = { workspaceId: "222756650686576" };
    mock.expect(
      {
        method: "GET",
        path: "/compute-envs",
        query: { status: "AVAILABLE", ...workspaceId },
        answer: {
          computeEnvs: [
            { id: "4iqCDE6C2Stq0jzBsHJvHn", name: "aws", status: "AVAILABLE", primary: true },
          ],
        },
      },
      {
        method: "GET",
        path: "/compute-envs/4iqCDE6C2Stq0jzBsHJvHn",
        query: workspaceId,
        answer: describedEnv("4iqCDE6C2Stq0jzBsHJvHn", "s3://nextflow-ci/jordeu"),
      },
      {
        method: "POST",
        path: "/workflow/launch",
        query: workspaceId,
        exactBody: {
          launch: {
            computeEnvId: "4iqCDE6C2Stq0jzBsHJvHn",
            pipeline: "https://github.com/nextflow-io/hello",
            workDir: "s3://nextflow-ci/jordeu",
          },
        },
        answer: { workflowId: "52KAMEcqXFyhZ9" },
      },
    );
    const { workflowId } = await launchPipeline(
      mock.client().withWorkspace(222756650686576),
      "https://github.com/nextflow-io/hello",
    );
    expect(workflowId).toBe("52KAMEcqXFyhZ9");
    mock.verify();
  });

  test("a named compute environment brings its work dir, scripts and config (tw's runTowerPipeline)", async () => {
    mock.expect(findSarek, describeSarek, {
      method: "GET",
      path: "/compute-envs",
      query: { status: "AVAILABLE" },
      answer: AVAILABLE_ENVS,
    });
    mock.expect({
      method: "GET",
      path: "/compute-envs/53aWhB2qJroy0i51FOrFAC",
      answer: describedEnv("53aWhB2qJroy0i51FOrFAC", "az://work", {
        preRunScript: "module load java",
        nextflowConfig: "process.executor = 'azurebatch'",
      }),
    });
    mock.expect(
      launched({
        ...SAREK_LAUNCH,
        computeEnvId: "53aWhB2qJroy0i51FOrFAC",
        workDir: "az://work",
        preRunScript: "module load java",
        configText: "process.executor = 'azurebatch'",
      }),
    );
    await launchPipeline(mock.client(), "sarek", { computeEnv: "manual" });
    mock.verify();
  });

  test("testSubmitLaunchpadPipelineWithVersionId: the version's launch", async () => {
    mock.expect(
      findSarek,
      { ...describeSarek, query: { versionId: "ver789" } },
      launched({ ...SAREK_LAUNCH, optimizationId: "rOYdwTnmTaRCJjUq" }),
    );
    await launchPipeline(mock.client(), "sarek", { versionId: "ver789" });
    mock.verify();
  });

  test("testSubmitLaunchpadPipelineWithVersionName: looked up among published versions", async () => {
    mock.expect(findSarek, {
      method: "GET",
      path: `/pipelines/${SAREK_ID}/versions`,
      query: { search: "release-1.0", isPublished: "true" },
      answer: {
        versions: [
          {
            pipelineId: Number(SAREK_ID),
            name: "sarek",
            version: { id: "resolvedVerId", name: "release-1.0" },
          },
        ],
        totalSize: 1,
      },
    });
    mock.expect(
      { ...describeSarek, query: { versionId: "resolvedVerId" } },
      launched(SAREK_LAUNCH),
    );
    await launchPipeline(mock.client(), "sarek", { versionName: "release-1.0" });
    mock.verify();
  });

  test("testSubmitLaunchpadPipelineWithVersionNameNotFound: nothing launched", async () => {
    mock.expect(
      findSarek,
      {
        method: "GET",
        path: `/pipelines/${SAREK_ID}/versions`,
        query: { search: "nonexistent", isPublished: "true" },
        answer: { versions: [], totalSize: 0 },
      },
      {
        // Ours only: one page of the published versions for "did you mean".
        method: "GET",
        path: `/pipelines/${SAREK_ID}/versions`,
        query: { isPublished: "true", max: "100" },
        queryAbsent: ["search"],
        answer: { versions: [{ version: { id: "v1", name: "nonexistent-1" } }], totalSize: 1 },
      },
    );
    await expect(
      launchPipeline(mock.client(), "sarek", { versionName: "nonexistent" }),
    ).rejects.toMatchObject({
      name: "NameNotFoundError",
      kind: "pipeline version",
      candidates: ["nonexistent-1"],
    });
    mock.verify();
  });

  test("testPipelineNotfound: a NameNotFoundError, after one page to suggest near names", async () => {
    mock.expect(
      {
        ...findSarek,
        query: { search: "hello", visibility: "all" },
        answer: twResource("pipelines_none"),
      },
      // Ours only: one page of the workspace's pipelines for "did you mean".
      {
        method: "GET",
        path: "/pipelines",
        query: { visibility: "all", max: "100" },
        queryAbsent: ["search"],
        answer: twResource("pipelines_sarek"),
      },
    );
    const error = await launchPipeline(mock.client(), "hello").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NameNotFoundError);
    expect((error as Error).message).toBe('No pipeline named "hello"');
    mock.verify();
  });

  test("testMultiplePipelinesFound: a search matching others, one exact name, launches it", async () => {
    // pipelines_multiple answers "hello" and "hellos": the search is a part of the name.
    mock.expect(
      {
        ...findSarek,
        query: { search: "hello", visibility: "all" },
        answer: twResource("pipelines_multiple"),
      },
      { ...describeSarek, path: `/pipelines/${SAREK_ID}/launch` },
      launched(SAREK_LAUNCH),
    );
    await launchPipeline(mock.client(), "hello");
    mock.verify();
  });

  test("two pipelines with the very same name are an AmbiguousNameError, nothing launched", async () => {
    const multiple = twResource("pipelines_multiple") as { pipelines: { name: string }[] };
    const same = {
      ...multiple,
      pipelines: multiple.pipelines.map((p) => ({ ...p, name: "hello" })),
    };
    mock.expect({ ...findSarek, query: { search: "hello" }, answer: same });
    await expect(launchPipeline(mock.client(), "hello")).rejects.toBeInstanceOf(AmbiguousNameError);
    mock.verify();
  });

  test("testInvalidAuth: the 401 is the caller's error, nothing else sent", async () => {
    mock.expect({ method: "GET", path: "/pipelines", status: 401 });
    await expect(launchPipeline(mock.client(), "hello")).rejects.toMatchObject({
      constructor: SeqeraApiError,
      status: 401,
    });
    mock.verify();
  });

  test("testWaitFailsWhenRunFails: a RunFailedError", async () => {
    mock.expect(
      ...PRIMARY_ENV,
      { method: "POST", path: "/workflow/launch", answer: { workflowId: "57ojrWRzTyous" } },
      {
        method: "GET",
        path: "/workflow/57ojrWRzTyous",
        answer: { workflow: { id: "57ojrWRzTyous", status: "FAILED" } },
      },
      { method: "GET", path: "/workflow/57ojrWRzTyous/tasks", answer: { tasks: [], total: 0 } },
    );
    await expect(
      launchPipeline(mock.client(), "https://github.com/nextflow-io/hello", {
        wait: { pollIntervalMs: 1 },
      }),
    ).rejects.toBeInstanceOf(RunFailedError);
    mock.verify();
  });
});
