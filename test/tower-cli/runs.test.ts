/**
 * tw's RunsCmdTest (src/test/java/io/seqera/tower/cli/runs/RunsCmdTest.java) ported to the
 * library: relaunch (with and without resume, as tw's RelaunchCmd builds the request), cancel
 * and list, given the answers tw's tests serve.
 */
import { beforeEach, describe, expect, test } from "vitest";
import {
  ConfigurationError,
  ForbiddenError,
  ResumeUnavailableError,
  cancelRun,
  listRuns,
  relaunchRun,
} from "../../src/index.js";
import { twMockPerTest, twResource, type TwMock } from "./mock-server.js";

const twMock = twMockPerTest();
let mock: TwMock;
beforeEach(() => {
  mock = twMock();
});

const RUN = "5mDfiUtqyptDib";
/** The run (workflow_view) and its launch (runs/workflow_launch), as tw's testRelaunch serves them. */
const describeRun = {
  method: "GET",
  path: `/workflow/${RUN}`,
  answer: twResource("workflow_view"),
};
const describeRunLaunch = {
  method: "GET",
  path: `/workflow/${RUN}/launch`,
  answer: twResource("runs/workflow_launch"),
};
const launched = (launch: object) => ({
  method: "POST",
  path: "/workflow/launch",
  body: { launch },
  answer: twResource("workflow_launch"),
});
/** What both relaunches carry over from the run's launch. */
const COMMON = {
  id: "5SCyEXKrCqFoGzOXGpesr5", // the run's launchId, not the launch's own id
  computeEnvId: "2lu3NFms1qRvwTVnrs1yhg",
  pipeline: "https://github.com/nf-core/rnaseq",
  configProfiles: ["test_full", "docker"],
  paramsText: "outdir: s3://fusionfs/results",
  pullLatest: false,
  stubRun: false,
};
const sentLaunch = () =>
  (mock.bodies("POST", "/workflow/launch")[0] as { launch: Record<string, unknown> }).launch;

describe("tw RunsCmdTest, ported", () => {
  test("testRelaunch: resumes by default, in the run's session, resume dir and commit", async () => {
    mock.expect(
      describeRun,
      describeRunLaunch,
      launched({
        ...COMMON,
        resume: true,
        sessionId: "ecaad2dd-83bb-4e0d-9418-d84f177e1e74", // the run's session
        workDir: "s3://fusionfs/scratch/5qRNYT6iAJfRbJ", // the launch's resumeDir
        revision: "89bf536ce4faa98b4d50a8ec0a0343780bc62e0a", // its resumeCommitId
      }),
    );
    const { workflowId } = await relaunchRun(mock.client(), RUN);
    expect(workflowId).toBe("35aLiS0bIM5efd");
    mock.verify();
    const launch = sentLaunch();
    // Unset, the commit is the service's to resolve; the run gets a new name.
    expect(launch).not.toHaveProperty("commitId");
    expect(launch).not.toHaveProperty("runName");
    expect(Date.parse(launch.dateCreated as string)).not.toBeNaN();
  });

  test("relaunch --no-resume: the launch's session, work dir and revision, resume false", async () => {
    mock.expect(
      describeRun,
      describeRunLaunch,
      launched({
        ...COMMON,
        resume: false,
        sessionId: "d77a5ac4-1a25-45d6-bab0-358605abc332", // the launch's, as tw sends it
        workDir: "s3://fusionfs",
      }),
    );
    await relaunchRun(mock.client(), RUN, { resume: false, runName: "again" });
    mock.verify();
    expect(sentLaunch()).not.toHaveProperty("revision"); // the launch's is null
    expect(sentLaunch().runName).toBe("again");
  });

  test("relaunch --no-resume --work-dir --pipeline: the overrides are sent", async () => {
    mock.expect(
      describeRun,
      describeRunLaunch,
      launched({
        ...COMMON,
        pipeline: "https://github.com/nf-core/sarek",
        workDir: "s3://elsewhere",
        commitId: "abc123",
      }),
    );
    await relaunchRun(mock.client(), RUN, {
      resume: false,
      pipeline: "https://github.com/nf-core/sarek",
      workDir: "s3://elsewhere",
      commitId: "abc123",
    });
    mock.verify();
  });

  test("a resumed run keeps its work dir and pipeline: changing them is refused before any call", async () => {
    const error = await relaunchRun(mock.client(), RUN, { workDir: "s3://x" }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toMatchObject({
      option: "workDir",
      message:
        "`workDir` needs `resume: false`: a resumed run keeps its work directory, where its cached tasks are.",
    });
    await expect(
      relaunchRun(mock.client(), RUN, { pipeline: "https://x/y" }),
    ).rejects.toBeInstanceOf(ConfigurationError);
    mock.verify();
  });

  test("resume without a commit id: ResumeUnavailableError, nothing launched", async () => {
    const saved = (twResource("runs/workflow_launch") as { launch: object }).launch;
    mock.expect(describeRun, {
      ...describeRunLaunch,
      answer: { launch: { ...saved, resumeCommitId: null } },
    });
    await expect(relaunchRun(mock.client(), RUN)).rejects.toBeInstanceOf(ResumeUnavailableError);
    mock.verify();
  });

  test("testCancel: POST /workflow/{id}/cancel answered 204", async () => {
    mock.expect({ method: "POST", path: "/workflow/5dAZoXrcmZXRO4/cancel", status: 204 });
    await expect(cancelRun(mock.client(), "5dAZoXrcmZXRO4")).resolves.toBeUndefined();
    mock.verify();
  });

  test("testCancelNotFound: a 403 is a ForbiddenError", async () => {
    mock.expect({
      method: "POST",
      path: "/workflow/5dAZoXrcmZXRO4/cancel",
      query: { workspaceId: "75887156211589" },
      status: 403,
    });
    await expect(
      cancelRun(mock.client().withWorkspace(75887156211589), "5dAZoXrcmZXRO4"),
    ).rejects.toBeInstanceOf(ForbiddenError);
    mock.verify();
  });

  test("testList: the runs of GET /workflow", async () => {
    mock.expect({ method: "GET", path: "/workflow", answer: twResource("workflow_list") });
    const ids: string[] = [];
    for await (const run of listRuns(mock.client())) ids.push(run.id!);
    expect(ids).toEqual(["5mDfiUtqyptDib", "6mDfiUtqyptDib"]);
    mock.verify();
  });

  test("testListEmpty: no runs", async () => {
    mock.expect({ method: "GET", path: "/workflow", answer: { workflows: [] } });
    const runs = [];
    for await (const run of listRuns(mock.client())) runs.push(run);
    expect(runs).toEqual([]);
    mock.verify();
  });
});
