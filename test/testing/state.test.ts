import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startEmulator, type Emulator } from "../../src/testing/index.js";
import { api, expectAnswer } from "./http.js";

const openapi = JSON.parse(
  await readFile(new URL("../../generated/openapi.json", import.meta.url), "utf8"),
);
const releaseHasFileSize = "fileSize" in openapi.components.schemas.DatasetVersionDto.properties;

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({
    rateLimit: false,
    seed: {
      organizations: [{ name: "acme", fullName: "Acme Labs", dateCreated: "2023-01-02T03:04:05Z" }],
      workspaces: [
        { org: "acme", name: "prod", id: 42 },
        { org: "acme", name: "dev", id: 43 },
      ],
      members: [{ org: "acme", userName: "bob", role: "member" }],
      credentials: [{ id: "cred1", name: "aws-keys", workspaceId: 42, keys: { secretKey: "x" } }],
      computeEnvs: [
        { id: "ce1", name: "aws", workspaceId: 42, credentialsId: "cred1" },
        { id: "ce2", name: "spare", workspaceId: 42, status: "ERRORED", message: "no quota" },
      ],
      pipelines: [
        {
          name: "rnaseq",
          workspaceId: "acme/prod",
          launch: { computeEnvId: "ce1", revision: "3.14", configProfiles: ["test"] },
        },
        { name: "sarek", workspaceId: 42 },
      ],
      secrets: [{ name: "TOKEN", value: "s3cret", workspaceId: 42 }],
      labels: [{ name: "nightly", workspaceId: 42 }],
    },
  });
});
afterAll(() => emulator.close());

describe("seeding", () => {
  test("the user sees its organizations and workspaces, so org/workspace names resolve", async () => {
    const { user } = await expectAnswer(emulator, "GET /user-info", "/user-info");
    expect(user).toMatchObject({ id: 1, userName: "emulated-user" });
    // No default workspace (a sampled id would name one that does not exist): null, as the
    // service writes an absent value.
    await expect((await api(emulator, "/user-info")).json()).resolves.toMatchObject({
      defaultWorkspaceId: null,
    });
    const { orgsAndWorkspaces } = await expectAnswer(
      emulator,
      "GET /user/{userId}/workspaces",
      `/user/${user.id}/workspaces`,
    );
    const named = orgsAndWorkspaces
      .filter((e: { workspaceId?: number }) => e.workspaceId != null)
      .map((e: { orgName: string; workspaceName: string; workspaceId: number }) => [
        `${e.orgName}/${e.workspaceName}`,
        e.workspaceId,
      ]);
    expect(named).toEqual([
      ["acme/prod", 42],
      ["acme/dev", 43],
    ]);
    // Another user's list is not ours to see.
    await expectAnswer(emulator, "GET /user/{userId}/workspaces", "/user/2/workspaces", {
      status: 403,
    });
  });

  test("creation dates are kept as seeded, in the service's form", async () => {
    const org = emulator.state.organizations.byName("acme", undefined)!;
    expect(org.dateCreated).toBe("2023-01-02T03:04:05Z");
    const run = emulator.state.runs.add({
      workspaceId: 42,
      dateCreated: new Date(Date.UTC(2024, 0, 5)),
    });
    expect(run.dateCreated).toBe("2024-01-05T00:00:00Z");
    emulator.state.runs.delete(run.id);
  });

  test("seeding into an unknown workspace creates it; a request never does", async () => {
    const label = emulator.state.labels.add({ name: "x", workspaceId: "other/lab" });
    const workspace = emulator.state.findWorkspace("other/lab")!;
    expect(label.workspaceId).toBe(workspace.id);
    emulator.state.labels.add({ name: "y", workspaceId: 777 });
    expect(emulator.state.workspaces.get(777)).toMatchObject({ name: "workspace-777" });
    expect((await api(emulator, "/labels?workspaceId=778")).status).toBe(403);
  });

  test("resource labels share a name and differ by value", () => {
    const bio = emulator.state.labels.add({ name: "team", value: "bio", workspaceId: 43 });
    const chem = emulator.state.labels.add({ name: "team", value: "chem", workspaceId: 43 });
    expect(bio.id).not.toBe(chem.id);
    expect(() =>
      emulator.state.labels.add({ name: "team", value: "bio", workspaceId: 43 }),
    ).toThrow(/already exists/);
  });

  test("a duplicate name in one workspace is a mistake in the seed", () => {
    expect(() => emulator.state.pipelines.add({ name: "rnaseq", workspaceId: 42 })).toThrow(
      /already exists/,
    );
    expect(() => emulator.state.workspaces.add({ org: "acme", name: "prod" })).toThrow(/exists/);
    expect(() => emulator.state.workspaces.add({ org: "acme", name: "my lab" })).toThrow(
      /as the service requires/,
    );
  });
});

describe("organizations, workspaces and members", () => {
  test("create, list, describe and delete through the API", async () => {
    const { organization } = await expectAnswer(emulator, "POST /orgs", "/orgs", {
      body: { organization: { name: "beta", fullName: "Beta" } },
    });
    expect(organization).toMatchObject({ name: "beta", memberRole: "owner" });
    await expectAnswer(emulator, "POST /orgs", "/orgs", {
      body: { organization: { name: "beta", fullName: "Beta" } },
      status: 409,
    });
    const orgId = organization.orgId;
    const { workspace } = await expectAnswer(
      emulator,
      "POST /orgs/{orgId}/workspaces",
      `/orgs/${orgId}/workspaces`,
      { body: { workspace: { name: "main", fullName: "Main", visibility: "PRIVATE" } } },
    );
    const { workspaces } = await expectAnswer(
      emulator,
      "GET /orgs/{orgId}/workspaces",
      `/orgs/${orgId}/workspaces`,
    );
    expect(workspaces.map((w: { name: string }) => w.name)).toEqual(["main"]);
    await expectAnswer(
      emulator,
      "GET /orgs/{orgId}/workspaces/{workspaceId}",
      `/orgs/${orgId}/workspaces/${workspace.id}`,
    );
    // A workspace of another organization is not found under this one.
    await expectAnswer(
      emulator,
      "GET /orgs/{orgId}/workspaces/{workspaceId}",
      `/orgs/${orgId}/workspaces/42`,
      { status: 403 },
    );
    const { member } = await expectAnswer(
      emulator,
      "PUT /orgs/{orgId}/members/add",
      `/orgs/${orgId}/members/add`,
      { body: { user: "carol@example.com" } },
    );
    const { members, totalSize } = await expectAnswer(
      emulator,
      "GET /orgs/{orgId}/members",
      `/orgs/${orgId}/members?search=carol`,
    );
    expect([members.map((m: { email: string }) => m.email), totalSize]).toEqual([
      ["carol@example.com"],
      1,
    ]);
    await expectAnswer(
      emulator,
      "DELETE /orgs/{orgId}/members/{memberId}",
      `/orgs/${orgId}/members/${member.memberId}`,
      { status: 204 },
    );
    await expectAnswer(emulator, "DELETE /orgs/{orgId}", `/orgs/${orgId}`, { status: 204 });
    await expectAnswer(emulator, "GET /orgs/{orgId}", `/orgs/${orgId}`, { status: 403 });
    expect(emulator.state.workspaces.get(workspace.id)).toBeUndefined();
  });

  test("participants of a workspace are the organization's members", async () => {
    const org = emulator.state.organizations.byName("acme", undefined)!;
    const { participants } = await expectAnswer(
      emulator,
      "GET /orgs/{orgId}/workspaces/{workspaceId}/participants",
      `/orgs/${org.id}/workspaces/42/participants`,
    );
    expect(
      participants.map((p: { userName: string; wspRole: string }) => [p.userName, p.wspRole]),
    ).toEqual([
      ["emulated-user", "owner"],
      ["bob", "launch"],
    ]);
  });
});

describe("pipelines and their launch configurations", () => {
  test("search by name, describe, saved launch, create, update, delete", async () => {
    const { pipelines, totalSize } = await expectAnswer(
      emulator,
      "GET /pipelines",
      "/pipelines?workspaceId=42&search=RNA",
    );
    expect([pipelines.map((p: { name: string }) => p.name), totalSize]).toEqual([["rnaseq"], 1]);
    const id = pipelines[0].pipelineId;
    expect(pipelines[0]).toMatchObject({
      repository: "https://github.com/nf-core/rnaseq",
      workspaceName: "prod",
      orgName: "acme",
      computeEnv: { id: "ce1" },
    });
    const { launch } = await expectAnswer(
      emulator,
      "GET /pipelines/{pipelineId}/launch",
      `/pipelines/${id}/launch?workspaceId=42`,
    );
    expect(launch).toMatchObject({
      id: emulator.state.pipelines.get(id)!.launchId,
      pipeline: "https://github.com/nf-core/rnaseq",
      revision: "3.14",
      configProfiles: ["test"],
      computeEnv: { id: "ce1", name: "aws", credentialsId: "cred1" },
      workDir: null,
    });
    // Only what was saved: no sampled params, config or scripts to copy into a launch.
    for (const unset of ["paramsText", "configText", "mainScript", "postRunScript"]) {
      expect(launch[unset] ?? null).toBeNull();
    }
    // Another workspace, or none, does not see it.
    await expectAnswer(
      emulator,
      "GET /pipelines/{pipelineId}/launch",
      `/pipelines/${id}/launch?workspaceId=43`,
      { status: 403 },
    );
    await expectAnswer(emulator, "GET /pipelines/{pipelineId}", `/pipelines/${id}`, {
      status: 403,
    });
    await expectAnswer(emulator, "GET /pipelines/{pipelineId}", "/pipelines/9999?workspaceId=42", {
      status: 403,
    });

    const created = await expectAnswer(emulator, "POST /pipelines", "/pipelines?workspaceId=43", {
      body: { name: "hello", launch: { pipeline: "https://github.com/nextflow-io/hello" } },
    });
    const newId = created.pipeline.pipelineId;
    await expectAnswer(
      emulator,
      "PUT /pipelines/{pipelineId}",
      `/pipelines/${newId}?workspaceId=43`,
      {
        body: { description: "greets", launch: { revision: "master" } },
      },
    );
    // A changed launch is a new draft version; the default (what launches) stays as it was.
    const edited = emulator.state.pipelines.get(newId)!;
    expect(edited).toMatchObject({ description: "greets", launch: {} });
    expect(edited.versions.map((v) => [v.name, v.isDefault, v.launch.revision])).toEqual([
      ["hello-1", true, undefined],
      [undefined, false, "master"],
    ]);
    await expectAnswer(emulator, "POST /pipelines", "/pipelines?workspaceId=43", {
      body: { name: "hello" },
      status: 409,
    });
    await expectAnswer(
      emulator,
      "DELETE /pipelines/{pipelineId}",
      `/pipelines/${newId}?workspaceId=43`,
      { status: 204 },
    );
    expect(emulator.state.pipelines.get(newId)).toBeUndefined();
  });
});

describe("compute environments", () => {
  test("list with status, describe, primary, create (CREATING until moved), delete", async () => {
    const list = async (query = "") =>
      (await expectAnswer(emulator, "GET /compute-envs", `/compute-envs?workspaceId=42${query}`))
        .computeEnvs;
    expect(
      (await list()).map((c: { name: string; primary: boolean }) => [c.name, c.primary]),
    ).toEqual([
      ["aws", true],
      ["spare", false],
    ]);
    expect((await list("&status=ERRORED")).map((c: { message: string }) => c.message)).toEqual([
      "no quota",
    ]);
    await expectAnswer(
      emulator,
      "POST /compute-envs/{computeEnvId}/primary",
      "/compute-envs/ce2/primary?workspaceId=42",
      { body: {}, status: 204 },
    );
    expect((await list()).map((c: { primary: boolean }) => c.primary)).toEqual([false, true]);
    emulator.state.computeEnvs.setPrimary("ce1");

    const { computeEnvId } = await expectAnswer(
      emulator,
      "POST /compute-envs",
      "/compute-envs?workspaceId=42",
      {
        body: {
          computeEnv: {
            name: "gcp",
            platform: "google-batch",
            credentialsId: "cred1",
            config: { discriminator: "google-batch", region: "europe-west2", workDir: "gs://b/w" },
          },
        },
      },
    );
    const describe = () =>
      expectAnswer(
        emulator,
        "GET /compute-envs/{computeEnvId}",
        `/compute-envs/${computeEnvId}?workspaceId=42`,
      );
    expect((await describe()).computeEnv).toMatchObject({
      status: "CREATING",
      platform: "google-batch",
      config: { discriminator: "google-batch", workDir: "gs://b/w" },
      workspaceId: 42,
    });
    emulator.state.computeEnvs.setStatus(computeEnvId, "AVAILABLE");
    expect((await describe()).computeEnv.status).toBe("AVAILABLE");
    // Credentials of another workspace cannot be named.
    await expectAnswer(emulator, "POST /compute-envs", "/compute-envs?workspaceId=43", {
      body: {
        computeEnv: {
          name: "x",
          platform: "aws-batch",
          credentialsId: "cred1",
          config: { discriminator: "aws-batch" },
        },
      },
      status: 400,
    });
    await expectAnswer(
      emulator,
      "GET /compute-envs/{computeEnvId}",
      `/compute-envs/${computeEnvId}?workspaceId=43`,
      { status: 403 },
    );
    await expectAnswer(
      emulator,
      "DELETE /compute-envs/{computeEnvId}",
      `/compute-envs/${computeEnvId}?workspaceId=42`,
      { status: 204 },
    );
    await describe().catch(() => undefined);
    expect(emulator.state.computeEnvs.get(computeEnvId)).toBeUndefined();
  });
});

describe("credentials, secrets and labels", () => {
  test("credentials: keys go in and never come out", async () => {
    const { credentialsId } = await expectAnswer(
      emulator,
      "POST /credentials",
      "/credentials?workspaceId=43",
      {
        body: {
          credentials: {
            name: "gh",
            provider: "github",
            keys: { discriminator: "github", password: "p" },
          },
        },
      },
    );
    const { credentials } = await expectAnswer(
      emulator,
      "GET /credentials/{credentialsId}",
      `/credentials/${credentialsId}?workspaceId=43`,
    );
    expect(credentials).toMatchObject({ id: credentialsId, name: "gh", provider: "github" });
    expect(credentials).not.toHaveProperty("keys");
    const listed = await expectAnswer(
      emulator,
      "GET /credentials",
      "/credentials?workspaceId=43&platformId=github",
    );
    expect(listed.credentials.map((c: { name: string }) => c.name)).toEqual(["gh"]);
    expect(emulator.state.credentials.get(credentialsId)!.keys).toEqual({
      discriminator: "github",
      password: "p",
    });
    await expectAnswer(
      emulator,
      "DELETE /credentials/{credentialsId}",
      `/credentials/${credentialsId}?workspaceId=43`,
      { status: 204 },
    );
    await expectAnswer(
      emulator,
      "GET /credentials/{credentialsId}",
      `/credentials/cred1?workspaceId=43`,
      { status: 403 },
    );
  });

  test("secrets: names checked as the service does, values never answered", async () => {
    const { secretId } = await expectAnswer(
      emulator,
      "POST /pipeline-secrets",
      "/pipeline-secrets?workspaceId=42",
      {
        body: { name: "API_KEY", value: "v1" },
      },
    );
    await expectAnswer(emulator, "POST /pipeline-secrets", "/pipeline-secrets?workspaceId=42", {
      body: { name: "API_KEY", value: "v2" },
      status: 409,
    });
    await expectAnswer(
      emulator,
      "PUT /pipeline-secrets/{secretId}",
      `/pipeline-secrets/${secretId}?workspaceId=42`,
      {
        body: { value: "v2" },
        status: 204,
      },
    );
    expect(emulator.state.secrets.get(secretId)!.value).toBe("v2");
    const { pipelineSecrets } = await expectAnswer(
      emulator,
      "GET /pipeline-secrets",
      "/pipeline-secrets?workspaceId=42",
    );
    expect(pipelineSecrets.map((s: { name: string }) => s.name)).toEqual(["TOKEN", "API_KEY"]);
    expect(JSON.stringify(pipelineSecrets)).not.toContain("v2");
    await expectAnswer(
      emulator,
      "GET /pipeline-secrets/{secretId}",
      `/pipeline-secrets/${secretId}?workspaceId=43`,
      { status: 403 },
    );
    await expectAnswer(
      emulator,
      "DELETE /pipeline-secrets/{secretId}",
      `/pipeline-secrets/${secretId}?workspaceId=42`,
      { status: 204 },
    );
  });

  test("labels: simple and resource labels, listed by type and name", async () => {
    const created = await expectAnswer(emulator, "POST /labels", "/labels?workspaceId=42", {
      body: { name: "team", value: "bio", resource: true },
    });
    expect(created).toMatchObject({ name: "team", value: "bio", resource: true });
    const list = async (query: string) =>
      (await expectAnswer(emulator, "GET /labels", `/labels?workspaceId=42&${query}`)).labels.map(
        (l: { name: string }) => l.name,
      );
    expect(await list("type=resource")).toEqual(["team"]);
    expect(await list("type=simple")).toEqual(["nightly"]);
    expect(await list("search=nig")).toEqual(["nightly"]);
    await expectAnswer(emulator, "PUT /labels/{labelId}", `/labels/${created.id}?workspaceId=42`, {
      body: { name: "team", value: "chem" },
    });
    await expectAnswer(
      emulator,
      "DELETE /labels/{labelId}",
      `/labels/${created.id}?workspaceId=42`,
      { status: 204 },
    );
    expect(await list("type=resource")).toEqual([]);
  });
});

describe("datasets", () => {
  test("create, upload a CSV as multipart, list versions, download, and the URL to launch with", async () => {
    const { dataset } = await expectAnswer(emulator, "POST /datasets", "/datasets?workspaceId=42", {
      body: { name: "samples", description: "sheet" },
    });
    const upload = async (content: string, header = true) => {
      const form = new FormData();
      form.append("file", new Blob([content], { type: "text/csv" }), "samples.csv");
      const response = await fetch(
        `${emulator.url}/datasets/${dataset.id}/upload?workspaceId=42&header=${header}`,
        { method: "POST", headers: { authorization: `Bearer ${emulator.token}` }, body: form },
      );
      expect(response.status).toBe(200);
      return ((await response.json()) as { version: Record<string, unknown> }).version;
    };
    const first = await upload("sample,fastq\nA,a.fq\n");
    const second = await upload("B,b.fq\n", false);
    expect(first).toMatchObject({
      version: 1,
      fileName: "samples.csv",
      hasHeader: true,
      mediaType: "text/csv",
    });
    expect(second).toMatchObject({ version: 2, hasHeader: false });
    // The emulator answers by its release's schema: DatasetVersionDto.fileSize is 1.181.0's.
    expect(second.fileSize).toBe(releaseHasFileSize ? 7 : undefined);
    expect(second.url).toBe(
      `${emulator.url}/workspaces/42/datasets/${dataset.id}/v/2/n/samples.csv`,
    );

    const { versions } = await expectAnswer(
      emulator,
      "GET /datasets/{datasetId}/versions",
      `/datasets/${dataset.id}/versions?workspaceId=42`,
    );
    expect(versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    const download = await api(
      emulator,
      `/datasets/${dataset.id}/v/1/n/samples.csv?workspaceId=42`,
    );
    expect(await download.text()).toBe("sample,fastq\nA,a.fq\n");
    expect(
      (await api(emulator, `/datasets/${dataset.id}/v/3/n/samples.csv?workspaceId=42`)).status,
    ).toBe(404);

    const listed = await expectAnswer(
      emulator,
      "GET /datasets",
      "/datasets?workspaceId=42&search=sam",
    );
    expect(listed.datasets).toMatchObject([{ id: dataset.id, version: 2 }]);
    await expectAnswer(
      emulator,
      "GET /datasets/{datasetId}/metadata",
      `/datasets/${dataset.id}/metadata?workspaceId=43`,
      { status: 403 },
    );
    await expectAnswer(
      emulator,
      "DELETE /datasets/{datasetId}",
      `/datasets/${dataset.id}?workspaceId=42`,
      { status: 204 },
    );
    await expectAnswer(
      emulator,
      "GET /datasets/{datasetId}/metadata",
      `/datasets/${dataset.id}/metadata?workspaceId=42`,
      { status: 403 },
    );
  });

  test("the older listing under /workspaces/{workspaceId}/datasets answers from the same datasets", async () => {
    const { dataset } = await expectAnswer(emulator, "POST /datasets", "/datasets?workspaceId=42", {
      body: { name: "older-api" },
    });
    const listed = await expectAnswer(
      emulator,
      "GET /workspaces/{workspaceId}/datasets",
      "/workspaces/42/datasets",
    );
    expect(listed.datasets).toContainEqual(
      expect.objectContaining({ id: dataset.id, name: "older-api" }),
    );
    await expectAnswer(
      emulator,
      "GET /workspaces/{workspaceId}/datasets",
      "/workspaces/4242/datasets",
      { status: 403 },
    );
  });

  test("a seeded dataset has its versions", () => {
    const dataset = emulator.state.datasets.add({
      name: "seeded",
      workspaceId: 42,
      versions: [{ content: "a\n" }, { fileName: "b.tsv", content: "b\n" }],
    });
    expect(dataset.versions.map((v) => [v.version, v.fileName, v.mediaType])).toEqual([
      [1, "samples.csv", "text/csv"],
      [2, "b.tsv", "text/tab-separated-values"],
    ]);
  });
});
