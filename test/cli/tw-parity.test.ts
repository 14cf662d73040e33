/**
 * The CLI against tw's own test suite (seqeralabs/tower-cli, LaunchCmdTest and RunsCmdTest):
 * given the answers tw's MockServer expectations serve, `seqera-api` sends the requests tw
 * sends — method, path, query, body as a JSON subset, each exactly as many times — and nothing
 * else. The answers are the recorded ones of test/fixtures/real-responses.lock.json (read at test time; the
 * manifest names tw's resource file), and our own minimal ones where tw's test writes its own.
 */
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { EXIT } from "../../src/cli/exit-codes.js";
import { TOKEN } from "../helpers/client.js";
import { twMockPerTest, twResource, type Expectation } from "../tower-cli/mock-server.js";
import { sharedBuild, runCli, type BuiltCli } from "./cli.js";

let cli: BuiltCli;
beforeAll(async () => {
  cli = await sharedBuild();
});
const mock = twMockPerTest();

/**
 * Runs the CLI against exactly these expectations (a request none matches, body included, is
 * answered 404, as MockServer does), then checks each was met its number of times, and that
 * every request carried the token.
 */
async function runAgainst(expectations: Expectation[], args: string[]) {
  mock().expect(...expectations);
  const result = await runCli(cli.main, args, {
    env: { TOWER_API_ENDPOINT: mock().url, TOWER_ACCESS_TOKEN: TOKEN },
  });
  mock().verify();
  for (const request of mock().server.requests)
    expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
  return result;
}
/** The launch body the CLI sent. */
const sentLaunch = () =>
  (mock().bodies("POST", "/workflow/launch")[0] as { launch: Record<string, unknown> }).launch;

const file = async (name: string, content: string) => {
  const at = path.join(tmpdir(), `${process.pid}-tw-${name}`);
  await writeFile(at, content);
  return at;
};

/** The answers of a Launchpad launch of tw's `sarek` (LaunchCmdTest's recorded resources). */
const sarek = (): Expectation[] => [
  {
    method: "GET",
    path: "/pipelines",
    query: { search: "sarek", visibility: "all" },
    answer: twResource("pipelines_sarek"),
  },
  {
    method: "GET",
    path: "/pipelines/250911634275687/launch",
    answer: twResource("pipeline_launch_describe"),
  },
];
const launched = (body: object, query?: Record<string, string>): Expectation => ({
  method: "POST",
  path: "/workflow/launch",
  query,
  body,
  answer: twResource("workflow_launch"),
});

/** tw's own answers for a workspace's compute environments, written down in its tests. */
const computeEnvs = (workspaceId?: string): Expectation[] => {
  const query: Record<string, string> = workspaceId === undefined ? {} : { workspaceId };
  return [
    {
      method: "GET",
      path: "/compute-envs",
      query: { ...query, status: "AVAILABLE" },
      answer: {
        computeEnvs: [
          { id: "4iqCDE6C2Stq0jzBsHJvHn", name: "aws", status: "AVAILABLE", primary: true },
          { id: "53aWhB2qJroy0i51FOrFAC", name: "manual", status: "AVAILABLE", primary: null },
        ],
      },
    },
    {
      method: "GET",
      path: "/compute-envs/4iqCDE6C2Stq0jzBsHJvHn",
      query,
      answer: {
        computeEnv: {
          id: "4iqCDE6C2Stq0jzBsHJvHn",
          name: "aws",
          status: "AVAILABLE",
          config: { workDir: "s3://nextflow-ci/jordeu", preRunScript: null },
        },
      },
    },
  ];
};

describe("tw launch (LaunchCmdTest)", () => {
  test("testSubmitLaunchpadPipeline: the saved launch, nothing added", async () => {
    const result = await runAgainst(
      [
        ...sarek(),
        launched({
          launch: {
            computeEnvId: "4X7YrYJp9B1d1DUpfur7DS",
            pipeline: "https://github.com/nf-core/sarek",
            workDir: "/efs",
            pullLatest: false,
            stubRun: false,
          },
        }),
      ],
      ["launch", "sarek"],
    );
    expect(result).toMatchObject({ code: EXIT.ok, stderr: "" });
    expect(JSON.parse(result.stdout)).toEqual({ workflowId: "35aLiS0bIM5efd", createdLabels: [] });
    // A fresh launch: neither the saved launch's resume nor its session (tw sends neither).
    const launch = sentLaunch();
    expect(launch).not.toHaveProperty("resume");
    expect(launch).not.toHaveProperty("sessionId");
  });

  test("testSubmitLaunchpadPipelineWithAdvancedOptions: every tw option, files read", async () => {
    const config = await file("nextflow.config", "extra_config");
    const pre = await file("pre.sh", "pre_run_me");
    const post = await file("post.sh", "post_run_me");
    const result = await runAgainst(
      [
        ...sarek(),
        launched({
          launch: {
            computeEnvId: "4X7YrYJp9B1d1DUpfur7DS",
            pipeline: "https://github.com/nf-core/sarek",
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
            // tw's newer options, beyond its test
            outputDir: "s3://out",
            syntaxParser: "v2",
            launchContainer: "quay.io/nf:24",
            userSecrets: ["A", "B"],
            workspaceSecrets: ["C"],
          },
        }),
      ],
      // tw's -p (profiles) is our --profile: -p is a path parameter of operation calls.
      ["launch", "sarek", "--profile", "test,docker", "-r", "develop", "--work-dir", "/my_work_dir"]
        .concat(["--config", config, "--pull-latest", "--stub-run", "--pre-run", pre])
        .concat(["--post-run", post, "--main-script", "alternate.nf", "--entry-name", "dsl2"])
        .concat(["--schema-name", "my_schema.json", "--output-dir", "s3://out"])
        .concat(["--syntax-parser", "v2", "--launch-container", "quay.io/nf:24"])
        .concat(["--user-secrets", "A,B", "--workspace-secrets", "C"]),
    );
    expect(result).toMatchObject({ code: EXIT.ok, stderr: "" });
  });

  test("--disable-optimization: the saved optimization is not sent", async () => {
    const result = await runAgainst(
      [...sarek(), launched({ launch: { pipeline: "https://github.com/nf-core/sarek" } })],
      ["launch", "sarek", "--disable-optimization"],
    );
    expect(result.code, result.stderr).toBe(EXIT.ok);
    const launch = sentLaunch();
    expect(launch).not.toHaveProperty("optimizationId");
    expect(launch).not.toHaveProperty("optimizationTargets");
  });

  test("testSubmitGithubPipeline: a URL, on the AVAILABLE primary, with its work directory", async () => {
    const result = await runAgainst(
      [
        ...computeEnvs(),
        launched({
          launch: {
            computeEnvId: "4iqCDE6C2Stq0jzBsHJvHn",
            pipeline: "https://github.com/nextflow-io/hello",
            workDir: "s3://nextflow-ci/jordeu",
          },
        }),
      ],
      ["launch", "https://github.com/nextflow-io/hello"],
    );
    expect(result).toMatchObject({ code: EXIT.ok, stderr: "" });
  });

  test("testSubmitToAWorkspace: every request carries the workspace", async () => {
    const workspaceId = "222756650686576";
    const result = await runAgainst(
      [
        ...computeEnvs(workspaceId),
        launched(
          {
            launch: {
              computeEnvId: "4iqCDE6C2Stq0jzBsHJvHn",
              pipeline: "https://github.com/nextflow-io/hello",
              workDir: "s3://nextflow-ci/jordeu",
            },
          },
          { workspaceId },
        ),
      ],
      ["launch", "https://github.com/nextflow-io/hello", "-w", workspaceId],
    );
    expect(result).toMatchObject({ code: EXIT.ok, stderr: "" });
  });

  test("-w organization/workspace: the name looked up as tw does, then sent as its id", async () => {
    const workspaceId = "75887156211589";
    const result = await runAgainst(
      [
        { method: "GET", path: "/user-info", answer: twResource("user") },
        {
          method: "GET",
          path: "/user/1264/workspaces",
          answer: twResource("workspaces/workspaces_list"),
        },
        ...computeEnvs(workspaceId),
        launched(
          {
            launch: { computeEnvId: "4iqCDE6C2Stq0jzBsHJvHn", workDir: "s3://nextflow-ci/jordeu" },
          },
          { workspaceId },
        ),
      ],
      ["launch", "https://github.com/nextflow-io/hello", "-w", "organization1/workspace1"],
    );
    expect(result).toMatchObject({ code: EXIT.ok, stderr: "" });
  });

  test("-c <name> on a Launchpad pipeline: that environment and its work directory", async () => {
    const result = await runAgainst(
      [
        ...sarek(),
        ...computeEnvs(),
        launched({
          launch: { computeEnvId: "4iqCDE6C2Stq0jzBsHJvHn", workDir: "s3://nextflow-ci/jordeu" },
        }),
      ],
      ["launch", "sarek", "-c", "aws"],
    );
    expect(result).toMatchObject({ code: EXIT.ok, stderr: "" });
  });

  test("-l: found labels by id, a missing one created first and said on stderr", async () => {
    const search = (name: string, type: string, answer: object): Expectation => ({
      method: "GET",
      path: "/labels",
      query: { search: name, type },
      answer,
    });
    const result = await runAgainst(
      [
        search("LabelOne", "simple", twResource("labels_user")),
        search("fresh", "simple", { labels: [], totalSize: 0 }),
        search("ResourceLabelOne", "resource", twResource("labels_user")),
        {
          method: "POST",
          path: "/labels",
          exactBody: { name: "fresh" },
          answer: { id: 99, name: "fresh", resource: false, isDefault: false },
        },
        ...sarek(),
        launched({ launch: { labelIds: [1, 99, 11] } }),
      ],
      ["launch", "sarek", "-l", "LabelOne,fresh", "-l", "ResourceLabelOne=ValueOne"],
    );
    expect(result.code, result.stderr).toBe(EXIT.ok);
    expect(result.stderr).toBe('seqera-api: created the missing labels "fresh"\n');
    expect(JSON.parse(result.stdout)).toMatchObject({ createdLabels: ["fresh"] });
  });

  test("testPipelineNotfound: exit 2, naming the pipeline, nothing launched", async () => {
    const result = await runAgainst(
      [
        {
          method: "GET",
          path: "/pipelines",
          query: { search: "hello", visibility: "all" },
          answer: twResource("pipelines_none"),
        },
        // Ours, not tw's: one listing of the workspace's pipelines, for the nearest names.
        {
          method: "GET",
          path: "/pipelines",
          query: { visibility: "all" },
          answer: twResource("pipelines_sarek"),
        },
      ],
      ["launch", "hello"],
    );
    expect(result.code).toBe(EXIT.usage);
    expect(result.stderr).toMatch(/^seqera-api: No pipeline named "hello"[^\n]*\n$/);
  });

  test("testInvalidAuth: a 401 is exit 4, under the command that was run", async () => {
    const result = await runAgainst(
      [{ method: "GET", path: "/pipelines", status: 401 }],
      ["launch", "hello"],
    );
    expect(result.code).toBe(EXIT.auth);
    expect(result.stderr).toMatch(/^seqera-api launch: 401 GET \/pipelines: /);
  });
});

describe("tw runs (RunsCmdTest, RelaunchCmd)", () => {
  const run = "5mDfiUtqyptDib";
  const describeRun = (): Expectation[] => [
    {
      method: "GET",
      path: `/workflow/${run}`,
      answer: twResource("workflow_view"),
    },
    {
      method: "GET",
      path: `/workflow/${run}/launch`,
      answer: twResource("runs/workflow_launch"),
    },
  ];

  test("relaunch (resume): the run's launchId and session, from its commit, in its resume dir", async () => {
    const result = await runAgainst(
      [
        ...describeRun(),
        launched({
          launch: {
            id: "5SCyEXKrCqFoGzOXGpesr5",
            sessionId: "ecaad2dd-83bb-4e0d-9418-d84f177e1e74",
            computeEnvId: "2lu3NFms1qRvwTVnrs1yhg",
            pipeline: "https://github.com/nf-core/rnaseq",
            workDir: "s3://fusionfs/scratch/5qRNYT6iAJfRbJ",
            revision: "89bf536ce4faa98b4d50a8ec0a0343780bc62e0a",
            configProfiles: ["test_full", "docker"],
            paramsText: "outdir: s3://fusionfs/results",
            resume: true,
            pullLatest: false,
            stubRun: false,
          },
        }),
      ],
      ["relaunch", run],
    );
    expect(result).toMatchObject({ code: EXIT.ok, stderr: "" });
    expect(JSON.parse(result.stdout)).toMatchObject({ workflowId: "35aLiS0bIM5efd" });
  });

  test("relaunch --no-resume: the launch's own session, work dir and revision; resume false", async () => {
    const result = await runAgainst(
      [
        ...describeRun(),
        launched({
          launch: {
            id: "5SCyEXKrCqFoGzOXGpesr5",
            sessionId: "d77a5ac4-1a25-45d6-bab0-358605abc332",
            workDir: "s3://fusionfs",
            resume: false,
          },
        }),
      ],
      ["relaunch", run, "--no-resume", "-n", "again"],
    );
    expect(result).toMatchObject({ code: EXIT.ok, stderr: "" });
    const launch = sentLaunch();
    expect(launch.runName).toBe("again");
    expect(launch).not.toHaveProperty("revision");
  });

  test("relaunch with tw's launch options: each replaces the run's setting", async () => {
    const config = await file("relaunch.config", "process.cpus = 2");
    const result = await runAgainst(
      [
        ...describeRun(),
        computeEnvs()[0]!,
        launched({
          launch: {
            id: "5SCyEXKrCqFoGzOXGpesr5",
            computeEnvId: "4iqCDE6C2Stq0jzBsHJvHn",
            configProfiles: ["test"],
            configText: "process.cpus = 2",
            pullLatest: true,
            resume: true,
          },
        }),
      ],
      ["relaunch", run, "-c", "aws", "--profile", "test", "--config", config, "--pull-latest"],
    );
    expect(result).toMatchObject({ code: EXIT.ok, stderr: "" });
  });

  test("relaunch --work-dir without --no-resume: exit 2 before any request", async () => {
    const result = await runAgainst([], ["relaunch", run, "--work-dir", "s3://elsewhere"]);
    expect(result).toMatchObject({ code: EXIT.usage, stdout: "" });
    expect(result.stderr).toMatch(/^seqera-api: --work-dir needs --no-resume/);
  });

  test("testCancel: POST /workflow/{id}/cancel exactly once", async () => {
    const result = await runAgainst(
      [{ method: "POST", path: "/workflow/5dAZoXrcmZXRO4/cancel", status: 204 }],
      ["cancel", "5dAZoXrcmZXRO4"],
    );
    expect(result).toMatchObject({ code: EXIT.ok, stderr: "" });
    expect(JSON.parse(result.stdout)).toEqual({ workflowId: "5dAZoXrcmZXRO4", cancelled: true });
  });

  test("testCancelNotFound: a 403 says the run may be in another workspace, exit 4", async () => {
    const result = await runAgainst(
      [{ method: "POST", path: "/workflow/5dAZoXrcmZXRO4/cancel", status: 403 }],
      ["cancel", "5dAZoXrcmZXRO4"],
    );
    expect(result.code).toBe(EXIT.auth);
    expect(result.stderr).toBe(
      "seqera-api cancel: 403 POST /workflow/{workflowId}/cancel: Forbidden: the run is not in the token owner's personal workspace (no --workspace or TOWER_WORKSPACE_ID), or TOWER_ACCESS_TOKEN is invalid or expired, or lacks a permission this needs.\n",
    );
  });
});

describe("tw datasets (DatasetsCmdTest)", () => {
  const workspaceId = "249664655368293";
  const upload = (datasetId: string): Expectation => ({
    method: "POST",
    path: `/datasets/${datasetId}/upload`,
    query: { workspaceId, header: "false" },
    answer: twResource("datasets/dataset_upload_response"),
  });

  test("testAdd: the dataset created with its description, then the file uploaded", async () => {
    const csv = await file("data.csv", "a,b\n1,2\n");
    const result = await runAgainst(
      [
        {
          method: "POST",
          path: "/datasets",
          query: { workspaceId },
          exactBody: { name: "dataset3", description: "Dataset 3 description." },
          answer: twResource("datasets/dataset_created_response"),
        },
        upload("1W3BTHWgRH71OJmOPMdG7S"),
      ],
      ["datasets", "add", "dataset3", csv, "-w", workspaceId, "-d", "Dataset 3 description."],
    );
    expect(result).toMatchObject({ code: EXIT.ok, stderr: "" });
    expect(JSON.parse(result.stdout)).toMatchObject({
      datasetId: "1W3BTHWgRH71OJmOPMdG7S",
      version: 3,
    });
    const [uploaded] = mock().server.requests.filter((r) => r.pathname.endsWith("/upload"));
    expect(uploaded!.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(uploaded!.body.toString()).toContain("a,b\n1,2\n");
  });

  test("a name already taken (ours, not tw's): a new version of that dataset", async () => {
    const csv = await file("data.csv", "a,b\n1,2\n");
    const result = await runAgainst(
      [
        {
          method: "POST",
          path: "/datasets",
          query: { workspaceId },
          status: 409,
          answer: { message: "A dataset named dataset1 already exists" },
        },
        {
          method: "GET",
          path: "/datasets",
          query: { workspaceId },
          answer: twResource("datasets/datasets_list"),
        },
        upload("4D9TP0w2pM0qmwqVHgrgBK"),
      ],
      ["datasets", "add", "dataset1", csv, "-w", workspaceId],
    );
    expect(result).toMatchObject({ code: EXIT.ok, stderr: "" });
    expect(JSON.parse(result.stdout)).toMatchObject({ datasetId: "4D9TP0w2pM0qmwqVHgrgBK" });
  });
});
