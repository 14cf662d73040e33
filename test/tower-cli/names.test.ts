/**
 * Names as tw looks them up (AbstractApiCmd, LabelsFinder, the pipelines and datasets commands),
 * ported from tw's PipelinesCmdTest, ComputeEnvsCmdTest, LabelsCmdTest, WorkspacesCmdTest and
 * DatasetsCmdTest to the library's find*, find.primaryComputeEnv, find.workspace, copyPipeline and
 * uploadDataset; plus what tw has no test for: an org-shared pipeline, a cached id gone stale.
 */
import { beforeEach, describe, expect, test } from "vitest";
import {
  ForbiddenError,
  NameNotFoundError,
  copyPipeline,
  find,
  launchPipeline,
  uploadDataset,
} from "../../src/index.js";
import { twMockPerTest, twResource, type TwMock } from "./mock-server.js";

const twMock = twMockPerTest();
let mock: TwMock;
beforeEach(() => {
  mock = twMock();
});

const WS = "75887156211589";
const searchSleep = {
  method: "GET",
  path: "/pipelines",
  query: { search: "sleep", visibility: "all" },
  answer: twResource("pipelines_sleep"),
};

describe("pipelines (PipelinesCmdTest)", () => {
  test("view by name: one search of the service, not a listing", async () => {
    mock.expect(searchSleep);
    const client = mock.client();
    await expect(find.pipeline(client, "sleep")).resolves.toMatchObject({
      pipelineId: 183522618315672,
      repository: "https://github.com/pditommaso/nf-sleep",
    });
    // Kept: asked again, the service is not.
    await expect(find.pipeline(client, "sleep")).resolves.toHaveProperty("name", "sleep");
    mock.verify();
  });

  test("optional: a missing name is undefined, without the near-name page", async () => {
    mock.expect({
      ...searchSleep,
      query: { search: "nope" },
      answer: twResource("pipelines_none"),
    });
    await expect(find.pipeline(mock.client(), "nope", { optional: true })).resolves.toBeUndefined();
    mock.verify();
  });

  test("shared from the organization: found, and launched from its source workspace", async () => {
    const shared = { pipelineId: 77, name: "shared-rnaseq", workspaceId: 11, orgId: 1 };
    mock.expect(
      {
        method: "GET",
        path: "/pipelines",
        query: { search: "shared-rnaseq", visibility: "all", workspaceId: WS },
        answer: { pipelines: [shared], totalSize: 1 },
      },
      {
        method: "GET",
        path: "/pipelines/77/launch",
        query: { workspaceId: WS, sourceWorkspaceId: "11" },
        answer: {
          launch: {
            id: "L1",
            pipeline: "https://github.com/nf-core/rnaseq",
            workDir: "s3://w",
            computeEnv: { id: "ce1" },
          },
        },
      },
      {
        method: "POST",
        path: "/workflow/launch",
        query: { workspaceId: WS, sourceWorkspaceId: "11" },
        body: { launch: { id: "L1", computeEnvId: "ce1", workDir: "s3://w" } },
        answer: { workflowId: "w1" },
      },
    );
    await launchPipeline(mock.client().withWorkspace(WS), "shared-rnaseq");
    mock.verify();
  });

  test("a kept id that answers 403 is looked up once more: re-created, it launches", async () => {
    const sleep = twResource("pipelines_sleep") as { pipelines: object[] };
    const recreated = { ...sleep, pipelines: [{ ...sleep.pipelines[0], pipelineId: 999 }] };
    mock.expect(searchSleep, {
      method: "GET",
      path: "/pipelines/183522618315672/launch",
      status: 403,
    });
    mock.expect({ ...searchSleep, answer: recreated });
    mock.expect(
      {
        method: "GET",
        path: "/pipelines/999/launch",
        answer: { launch: { id: "L9", pipeline: "p", workDir: "/w", computeEnv: { id: "c" } } },
      },
      {
        method: "POST",
        path: "/workflow/launch",
        body: { launch: { id: "L9" } },
        answer: { workflowId: "w9" },
      },
    );
    const client = mock.client();
    await find.pipeline(client, "sleep"); // kept from here
    await expect(launchPipeline(client, "sleep")).resolves.toHaveProperty("workflowId", "w9");
    mock.verify();
  });

  test("a kept id that answers 404 and a name now gone: the error says the name is stale", async () => {
    mock.expect(
      searchSleep,
      { method: "GET", path: "/pipelines/183522618315672/launch", status: 404 },
      { ...searchSleep, answer: twResource("pipelines_none") },
    );
    const client = mock.client();
    await find.pipeline(client, "sleep");
    const error = await launchPipeline(client, "sleep").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NameNotFoundError);
    expect((error as Error).message).toBe(
      'The pipeline "sleep" (id 183522618315672) answered 404 and no longer exists: it was deleted',
    );
    mock.verify();
  });

  test("a 403 on the launch itself is the caller's: no second lookup, nothing sent twice", async () => {
    mock.expect(
      searchSleep,
      {
        method: "GET",
        path: "/pipelines/183522618315672/launch",
        answer: { launch: { id: "L1", pipeline: "p", workDir: "/w", computeEnv: { id: "c" } } },
      },
      { method: "POST", path: "/workflow/launch", status: 403 },
    );
    const client = mock.client();
    await find.pipeline(client, "sleep");
    await expect(launchPipeline(client, "sleep")).rejects.toBeInstanceOf(ForbiddenError);
    mock.verify();
  });

  test("copy to another workspace: launch config kept, compute env mapped by name", async () => {
    mock.expect(
      { ...searchSleep, query: { search: "sleep", workspaceId: WS } },
      {
        method: "GET",
        path: "/pipelines/183522618315672/launch",
        query: { workspaceId: WS },
        answer: twResource("pipelines_update"),
      },
      {
        method: "GET",
        path: "/compute-envs",
        query: { status: "AVAILABLE", workspaceId: "75887156211590" },
        answer: twResource("compute_envs_list"),
      },
      {
        method: "GET",
        path: "/compute-envs/vYOK4vn7spw7bHHWBDXZ2",
        query: { workspaceId: "75887156211590" },
        answer: twResource("compute_env_demo"),
      },
      {
        method: "POST",
        path: "/pipelines",
        query: { workspaceId: "75887156211590" },
        body: {
          name: "sleep",
          launch: { computeEnvId: "vYOK4vn7spw7bHHWBDXZ2", workDir: "s3://nextflow-ci/jordeu" },
        },
        answer: twResource("pipelines_add_response"),
      },
    );
    const copied = await copyPipeline(mock.client().withWorkspace(WS), "sleep", {
      to: 75887156211590,
    });
    expect(copied).toEqual({
      pipelineId: "112055935685449",
      computeEnvId: "vYOK4vn7spw7bHHWBDXZ2",
      computeEnvBy: "name",
    });
    mock.verify();
    const [body] = mock.bodies("POST", "/pipelines") as { launch: object }[];
    // What belongs to the source workspace stays there.
    expect(body!.launch).not.toHaveProperty("id");
  });

  test("copy where the target has no compute env of that name: its primary", async () => {
    mock.expect(
      searchSleep,
      {
        method: "GET",
        path: "/pipelines/183522618315672/launch",
        answer: twResource("pipelines_update"),
      },
      {
        method: "GET",
        path: "/compute-envs",
        query: { status: "AVAILABLE", workspaceId: "5" },
        // Once (tw asks twice): the name's lookup and the primary read the one kept list.
        answer: { computeEnvs: [{ id: "other", name: "big", primary: true, status: "AVAILABLE" }] },
      },
      {
        method: "GET",
        path: "/compute-envs/other",
        answer: { computeEnv: { id: "other", config: { workDir: "gs://work" } } },
      },
      {
        method: "POST",
        path: "/pipelines",
        body: { launch: { computeEnvId: "other", workDir: "gs://work" } },
        answer: twResource("pipelines_add_response"),
      },
    );
    await expect(copyPipeline(mock.client(), "sleep", { to: 5 })).resolves.toMatchObject({
      computeEnvId: "other",
      computeEnvBy: "primary",
    });
    mock.verify();
  });
});

describe("compute environments (ComputeEnvsCmdTest)", () => {
  test("primary: among the AVAILABLE ones only", async () => {
    mock.expect({
      method: "GET",
      path: "/compute-envs",
      query: { status: "AVAILABLE" },
      answer: twResource("compute_envs_list"),
    });
    await expect(find.primaryComputeEnv(mock.client())).resolves.toMatchObject({
      id: "3xkkzYH2nbD3nZjrzKm0oR",
      name: "ce1",
    });
    mock.verify();
  });

  test("by name (view -n demo)", async () => {
    // Kept after the first: the miss asks once more (the resource may be new since).
    mock.expect({
      method: "GET",
      path: "/compute-envs",
      times: 2,
      answer: twResource("compute_envs_list"),
    });
    const client = mock.client();
    await expect(find.computeEnv(client, "demo")).resolves.toHaveProperty(
      "id",
      "vYOK4vn7spw7bHHWBDXZ2",
    );
    await expect(find.computeEnv(client, "dem", { optional: true })).resolves.toBeUndefined();
    mock.verify();
  });
});

describe("labels (LabelsCmdTest)", () => {
  test("plain and resource labels by name", async () => {
    // One search per name (tw's LabelsFinder searches too); labels_user answers each.
    for (const search of ["ResourceLabelOne", "LabelTwo", "LabelNine"]) {
      mock.expect({
        method: "GET",
        path: "/labels",
        query: { search },
        answer: twResource("labels_user"),
      });
    }
    const client = mock.client();
    await expect(find.label(client, "ResourceLabelOne=ValueOne")).resolves.toHaveProperty("id", 11);
    await expect(find.label(client, "LabelTwo")).resolves.toHaveProperty("id", 2);
    await expect(find.label(client, "LabelNine", { optional: true })).resolves.toBeUndefined();
    mock.verify();
  });
});

describe("workspaces (WorkspacesCmdTest)", () => {
  test("by name, with its organization; by id; a missing one", async () => {
    mock.expect(
      { method: "GET", path: "/user-info", answer: twResource("user") },
      {
        method: "GET",
        path: "/user/1264/workspaces",
        answer: twResource("workspaces/workspaces_list"),
      },
    );
    const client = mock.client();
    const expected = {
      orgId: "27736513644467",
      orgName: "organization1",
      workspaceId: "75887156211589",
      workspaceName: "workspace1",
    };
    await expect(find.workspace(client, "organization1/workspace1")).resolves.toEqual(expected);
    await expect(find.workspace(client, 75887156211589)).resolves.toEqual(expected);
    // Kept: a miss asks once more, then there is none.
    mock.expect(
      { method: "GET", path: "/user-info", answer: twResource("user") },
      {
        method: "GET",
        path: "/user/1264/workspaces",
        answer: twResource("workspaces/workspaces_list"),
      },
    );
    await expect(
      find.workspace(client, "organization1/workspace9", { optional: true }),
    ).resolves.toBeUndefined();
    mock.verify();
  });
});

describe("datasets (DatasetsCmdTest)", () => {
  const ws = { workspaceId: "249664655368293" };

  test("add: created, then its first version uploaded without header", async () => {
    mock.expect(
      {
        method: "POST",
        path: "/datasets",
        query: ws,
        body: { name: "dataset3", description: "Dataset 3 description." },
        answer: twResource("datasets/dataset_created_response"),
      },
      {
        method: "POST",
        path: "/datasets/1W3BTHWgRH71OJmOPMdG7S/upload",
        query: { ...ws, header: "false" },
        answer: twResource("datasets/dataset_upload_response"),
      },
    );
    const uploaded = await uploadDataset(mock.client().withWorkspace(249664655368293), {
      name: "dataset3",
      description: "Dataset 3 description.",
      content: "a,b\n1,2\n",
    });
    expect(uploaded).toMatchObject({ datasetId: "1W3BTHWgRH71OJmOPMdG7S", version: 3 });
    mock.verify();
  });

  test("update by name: the dataset searched as tw does, a version uploaded to it", async () => {
    mock.expect(
      { method: "POST", path: "/datasets", query: ws, status: 409 },
      {
        method: "GET",
        path: "/datasets",
        query: { ...ws, search: "dataset2", visibility: "all" },
        answer: twResource("datasets/datasets_list"),
      },
      {
        method: "POST",
        path: "/datasets/1W2FqBiI6WoNokQTkPkEzo/upload",
        query: { ...ws, header: "false" },
        answer: twResource("datasets/dataset_upload_response"),
      },
    );
    const uploaded = await uploadDataset(mock.client().withWorkspace(249664655368293), {
      name: "dataset2",
      content: "a,b\n",
    });
    expect(uploaded.datasetId).toBe("1W2FqBiI6WoNokQTkPkEzo");
    mock.verify();
  });
});
