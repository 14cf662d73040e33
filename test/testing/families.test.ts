import { afterEach, expect, test } from "vitest";
import { startEmulator, type Emulator } from "../../src/testing/index.js";
import { api, ERROR_ID, expectAnswer } from "./http.js";

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function start(options: Parameters<typeof startEmulator>[0] = {}): Promise<Emulator> {
  emulator = await startEmulator({ rateLimit: false, ...options });
  return emulator;
}

test("a family not modelled by hand keeps what is created, by the shape of its paths", async () => {
  const e = await start({
    seed: {
      workspaces: [{ org: "acme", name: "prod", id: 42 }],
      resources: { "/actions": [{ name: "seeded", source: "tower", workspaceId: 42 }] },
    },
  });
  const created = await expectAnswer(e, "POST /actions", "/actions?workspaceId=42", {
    body: { name: "nightly", source: "tower", launch: { pipeline: "https://github.com/x/y" } },
  });
  const id = created.actionId;
  expect(typeof id).toBe("string");
  const list = await expectAnswer(e, "GET /actions", "/actions?workspaceId=42");
  expect(list.actions.map((a: any) => [a.name, a.source])).toEqual([
    ["seeded", "tower"],
    ["nightly", "tower"],
  ]);
  const { action } = await expectAnswer(
    e,
    "GET /actions/{actionId}",
    `/actions/${id}?workspaceId=42`,
  );
  expect(action).toMatchObject({
    id,
    name: "nightly",
    launch: { pipeline: "https://github.com/x/y" },
  });
  // Another workspace (here the personal one) does not see it; a name taken is a 409.
  expect((await api(e, `/actions/${id}`)).status).toBe(403);
  expect((await expectAnswer(e, "GET /actions", "/actions")).actions).toEqual([]);
  const again = await api(e, "/actions?workspaceId=42", {
    method: "POST",
    body: { name: "nightly", source: "tower", launch: {} },
  });
  expect(again.status).toBe(409);
  expect((await again.json()).message).toMatch(ERROR_ID);

  await expectAnswer(e, "PUT /actions/{actionId}", `/actions/${id}?workspaceId=42`, {
    body: { name: "renamed" },
    status: 204,
  });
  expect(
    (await expectAnswer(e, "GET /actions/{actionId}", `/actions/${id}?workspaceId=42`)).action.name,
  ).toBe("renamed");
  await expectAnswer(e, "DELETE /actions/{actionId}", `/actions/${id}?workspaceId=42`, {
    status: 204,
  });
  expect((await api(e, `/actions/${id}?workspaceId=42`)).status).toBe(403);
  expect(e.state.resources.list("/actions", 42).map((r) => r.fields.name)).toEqual(["seeded"]);
});

test("studios start and stop through the service's statuses, lowercase", async () => {
  const e = await start({
    autoAdvance: true,
    seed: {
      workspaces: [{ org: "acme", name: "prod", id: 42 }],
      computeEnvs: [{ id: "ce1", name: "aws", workspaceId: 42 }],
      studios: [
        { name: "stale", workspaceId: 42, computeEnvId: "ce1", status: "running" },
        { name: "idle", workspaceId: 42, computeEnvId: "ce1" },
      ],
    },
  });
  const { studio } = await expectAnswer(
    e,
    "POST /studios",
    "/studios?workspaceId=42&autoStart=false",
    {
      body: { name: "new", computeEnvId: "ce1" },
    },
  );
  expect(studio.statusInfo.status).toBe("stopped");
  expect(studio.computeEnv).toMatchObject({ id: "ce1", name: "aws" });

  const list = await expectAnswer(e, "GET /studios", "/studios?workspaceId=42&search=stale");
  expect(list.totalSize).toBe(1);
  const stale = list.studios[0];
  const stop = await expectAnswer(
    e,
    "PUT /studios/{sessionId}/stop",
    `/studios/${stale.sessionId}/stop?workspaceId=42`,
  );
  expect(stop).toMatchObject({ jobSubmitted: true, statusInfo: { status: "stopping" } });
  // A poll moves it on (autoAdvance), as the service finishes stopping.
  const polled = await expectAnswer(
    e,
    "GET /studios/{sessionId}",
    `/studios/${stale.sessionId}?workspaceId=42`,
  );
  expect(polled.statusInfo.status).toBe("stopped");
  const again = await expectAnswer(
    e,
    "PUT /studios/{sessionId}/stop",
    `/studios/${stale.sessionId}/stop?workspaceId=42`,
  );
  expect(again.jobSubmitted).toBe(false);

  const started = await expectAnswer(
    e,
    "PUT /studios/{sessionId}/start",
    `/studios/${studio.sessionId}/start?workspaceId=42`,
    { body: {} },
  );
  expect(started.statusInfo.status).toBe("starting");
  expect(e.state.studios.advance(studio.sessionId).status).toBe("running");
  const name = await api(e, "/studios?workspaceId=42", {
    method: "POST",
    body: { name: "idle", computeEnvId: "ce1" },
  });
  expect(name.status).toBe(409);
});

test("data links: objects browsed folder by folder, a page at a time, downloads and credentials status", async () => {
  const e = await start({
    seed: {
      workspaces: [{ org: "acme", name: "prod", id: 42 }],
      credentials: [{ id: "aws1", name: "aws", workspaceId: 42 }],
      dataLinks: [
        {
          resourceRef: "s3://acme-data",
          region: "eu-west-1",
          credentialsId: "aws1",
          workspaceId: 42,
          objects: {
            "reads/a_R1.fastq.gz": 1200,
            "reads/a_R2.fastq.gz": 1300,
            "reads/qc/report.html": "<html></html>",
            "samples.csv": "sample,fastq\na,reads/a_R1.fastq.gz\n",
          },
        },
        { resourceRef: "s3://orphan", credentialsId: "gone", workspaceId: 42 },
      ],
    },
  });
  const { dataLinks, totalSize } = await expectAnswer(
    e,
    "GET /data-links",
    "/data-links?workspaceId=42",
  );
  expect(totalSize).toBe(2);
  expect(dataLinks.map((l: any) => [l.name, l.status, l.credentials.length])).toEqual([
    ["acme-data", "VALID", 1],
    ["orphan", "INVALID", 0],
  ]);
  expect(dataLinks[1].message).toBe("Credentials 'gone' not found");
  const id = dataLinks[0].id;

  const root = await expectAnswer(
    e,
    "GET /data-links/{dataLinkId}/browse",
    `/data-links/${id}/browse?workspaceId=42`,
  );
  expect(root.objects.map((o: any) => [o.type, o.name, o.size])).toEqual([
    ["FOLDER", "reads", 0],
    ["FILE", "samples.csv", 35],
  ]);
  const first = await expectAnswer(
    e,
    "GET /data-links/{dataLinkId}/browse/{path}",
    `/data-links/${id}/browse/reads?workspaceId=42&pageSize=2`,
  );
  expect(first.objects.map((o: any) => o.name)).toEqual(["qc", "a_R1.fastq.gz"]);
  const second = await expectAnswer(
    e,
    "GET /data-links/{dataLinkId}/browse/{path}",
    `/data-links/${id}/browse/reads?workspaceId=42&pageSize=2&nextPageToken=${first.nextPageToken}`,
  );
  expect(second.objects.map((o: any) => [o.name, o.size])).toEqual([["a_R2.fastq.gz", 1300]]);
  expect(second.nextPageToken).toBeNull();

  const tree = await expectAnswer(
    e,
    "GET /data-links/{dataLinkId}/browse-tree",
    `/data-links/${id}/browse-tree?workspaceId=42&paths=reads`,
  );
  expect(tree.items.reduce((sum: number, i: any) => sum + i.size, 0)).toBe(1200 + 1300 + 13);

  const file = await api(e, `/data-links/${id}/download/reads/qc/report.html?workspaceId=42`);
  expect(await file.text()).toBe("<html></html>");
  expect((await api(e, `/data-links/${id}/download/nope.txt?workspaceId=42`)).status).toBe(404);
  expect((await api(e, `/data-links/${id}/browse`)).status).toBe(403);
});

test("a studio seeded with a stopError fails its stops: stopping, then errored with the message", async () => {
  const e = await start({
    seed: {
      workspaces: [{ org: "acme", name: "prod", id: 42 }],
      computeEnvs: [{ id: "ce1", name: "aws", workspaceId: 42 }],
      studios: [
        {
          id: "stuck",
          name: "stuck",
          computeEnvId: "ce1",
          status: "running",
          stopError: "Unable to stop the studio: the job queue refused the request",
          workspaceId: 42,
        },
      ],
    },
  });
  const stop = await expectAnswer(
    e,
    "PUT /studios/{sessionId}/stop",
    "/studios/stuck/stop?workspaceId=42",
  );
  expect([stop.jobSubmitted, stop.statusInfo.status]).toEqual([true, "stopping"]);
  e.state.studios.advance("stuck");
  const studio = await expectAnswer(e, "GET /studios/{sessionId}", "/studios/stuck?workspaceId=42");
  expect(studio.statusInfo).toMatchObject({
    status: "errored",
    message: "Unable to stop the studio: the job queue refused the request",
  });
});

test("a data link listed INVALID is not browsed; refused keys and failing browses can be seeded", async () => {
  const e = await start({
    seed: {
      workspaces: [{ org: "acme", name: "prod", id: 42 }],
      credentials: [{ id: "aws1", name: "aws", workspaceId: 42 }],
      dataLinks: [
        { id: "nocreds", resourceRef: "s3://nocreds", workspaceId: 42, objects: { "a.txt": "a" } },
        {
          id: "refused",
          resourceRef: "s3://refused",
          credentialsId: "aws1",
          credentialsError: "The AWS Access Key Id you provided does not exist in our records.",
          workspaceId: 42,
          objects: { "a.txt": "a" },
        },
        {
          id: "flaky",
          resourceRef: "s3://flaky",
          credentialsId: "aws1",
          browseError: { status: 400, message: "Access Denied (Service: S3, Status Code: 403)" },
          workspaceId: 42,
          objects: { "a.txt": "a" },
        },
      ],
    },
  });
  const { dataLinks } = await expectAnswer(e, "GET /data-links", "/data-links?workspaceId=42");
  expect(dataLinks.map((l: any) => [l.name, l.status, l.message])).toEqual([
    ["nocreds", "INVALID", "No credentials to read this bucket"],
    ["refused", "INVALID", "The AWS Access Key Id you provided does not exist in our records."],
    ["flaky", "VALID", null],
  ]);
  for (const id of ["nocreds", "refused"]) {
    for (const path of ["browse", "browse/x", "browse-tree", "download/a.txt"]) {
      const answer = await api(e, `/data-links/${id}/${path}?workspaceId=42`);
      expect(answer.status, `${id}/${path}`).toBe(500);
      expect((await answer.json()).message).toMatch(
        /^Unexpected error while processing request - Error ID: /,
      );
    }
  }
  const flaky = await api(e, "/data-links/flaky/browse?workspaceId=42");
  expect(flaky.status).toBe(400);
  expect((await flaky.json()).message).toMatch(/^Access Denied .* - Error ID: /);
});

test("teams, team members and workspace roles follow the service's rules", async () => {
  const e = await start({
    seed: {
      workspaces: [{ org: "acme", name: "prod", id: 42 }],
      members: [{ org: "acme", userName: "alice", email: "alice@acme.org" }],
    },
  });
  const orgId = e.state.workspaces.get(42)!.orgId;
  // E-mails compare in any case: ALICE is alice.
  const member = await api(e, `/orgs/${orgId}/members/add`, {
    method: "PUT",
    body: { user: "ALICE@acme.org" },
  });
  expect(member.status).toBe(409);

  const { team } = await expectAnswer(e, "POST /orgs/{orgId}/teams", `/orgs/${orgId}/teams`, {
    body: { team: { name: "bioinfo", description: "Bioinformatics" } },
  });
  expect(team).toMatchObject({ name: "bioinfo", membersCount: 0 });
  expect(
    (await api(e, `/orgs/${orgId}/teams`, { method: "POST", body: { team: { name: "bioinfo" } } }))
      .status,
  ).toBe(409);

  const added = await expectAnswer(
    e,
    "POST /orgs/{orgId}/teams/{teamId}/members",
    `/orgs/${orgId}/teams/${team.teamId}/members`,
    { body: { userNameOrEmail: "Alice@ACME.org" } },
  );
  expect(added.member.userName).toBe("alice");
  const twice = await api(e, `/orgs/${orgId}/teams/${team.teamId}/members`, {
    method: "POST",
    body: { userNameOrEmail: "alice" },
  });
  expect(twice.status).toBe(409);
  const stranger = await api(e, `/orgs/${orgId}/teams/${team.teamId}/members`, {
    method: "POST",
    body: { userNameOrEmail: "bob@else.org" },
  });
  expect(stranger.status).toBe(400);
  expect((await stranger.json()).message).toMatch(/^User 'bob@else.org' is not a member/);

  const { participant } = await expectAnswer(
    e,
    "PUT /orgs/{orgId}/workspaces/{workspaceId}/participants/add",
    `/orgs/${orgId}/workspaces/42/participants/add`,
    { body: { teamId: team.teamId } },
  );
  expect(participant).toMatchObject({ type: "TEAM", teamName: "bioinfo", wspRole: "launch" });
  await expectAnswer(
    e,
    "PUT /orgs/{orgId}/workspaces/{workspaceId}/participants/{participantId}/role",
    `/orgs/${orgId}/workspaces/42/participants/${participant.participantId}/role`,
    { body: { role: "maintain" }, status: 204 },
  );
  const { participants } = await expectAnswer(
    e,
    "GET /orgs/{orgId}/workspaces/{workspaceId}/participants",
    `/orgs/${orgId}/workspaces/42/participants`,
  );
  // The members the workspace answered before the team was added are still there.
  expect(participants.map((p: any) => [p.userName ?? p.teamName, p.wspRole])).toEqual([
    ["emulated-user", "owner"],
    ["alice", "launch"],
    ["bioinfo", "maintain"],
  ]);
  const { workspaces } = await expectAnswer(
    e,
    "GET /orgs/{orgId}/teams/{teamId}/workspaces",
    `/orgs/${orgId}/teams/${team.teamId}/workspaces`,
  );
  expect(workspaces.map((w: any) => [w.workspaceName, w.participantRole])).toEqual([
    ["prod", "maintain"],
  ]);
  const dup = await api(e, `/orgs/${orgId}/workspaces/42/participants/add`, {
    method: "PUT",
    body: { userNameOrEmail: "ALICE@acme.org" },
  });
  expect(dup.status).toBe(409);
});

test("a created compute env reads back with its settings: Wave, Fusion, Forge", async () => {
  const e = await start({
    seed: {
      workspaces: [{ org: "acme", name: "prod", id: 42 }],
      credentials: [{ id: "aws1", name: "aws", provider: "aws", workspaceId: 42 }],
    },
  });
  const config = {
    region: "eu-west-1",
    workDir: "s3://acme/work",
    waveEnabled: true,
    fusion2Enabled: true,
    nvnmeStorageEnabled: true,
    forge: { type: "SPOT", minCpus: 0, maxCpus: 256, ebsAutoScale: true },
  };
  const { computeEnvId } = await expectAnswer(
    e,
    "POST /compute-envs",
    "/compute-envs?workspaceId=42",
    {
      body: {
        computeEnv: {
          name: "aws-wave",
          platform: "aws-batch",
          credentialsId: "aws1",
          config: { ...config, discriminator: "aws-batch" },
        },
      },
    },
  );
  const { computeEnv } = await expectAnswer(
    e,
    "GET /compute-envs/{computeEnvId}",
    `/compute-envs/${computeEnvId}?workspaceId=42`,
  );
  expect(computeEnv.config).toMatchObject({ ...config, discriminator: "aws-batch" });
});

test("pipeline actions: a GitHub action gets its webhook, a launch starts a run from the action's launch", async () => {
  const e = await start({
    seed: {
      workspaces: [{ org: "acme", name: "prod", id: 42 }],
      computeEnvs: [{ id: "ce1", name: "aws", workspaceId: 42 }],
    },
  });
  const launch = {
    pipeline: "https://github.com/nf-core/rnaseq",
    computeEnvId: "ce1",
    workDir: "s3://acme/work",
    paramsText: '{"outdir":"s3://acme/out"}',
  };
  const { actionId } = await expectAnswer(e, "POST /actions", "/actions?workspaceId=42", {
    body: { name: "on-push", source: "github", launch },
  });
  const { action } = await expectAnswer(
    e,
    "GET /actions/{actionId}",
    `/actions/${actionId}?workspaceId=42`,
  );
  expect(action).toMatchObject({
    source: "github",
    status: "ACTIVE",
    hookId: expect.stringMatching(/^\d{9}$/),
    config: { events: ["push"], discriminator: "github" },
    launch: {
      id: expect.stringMatching(/^\w{20}$/),
      pipeline: launch.pipeline,
      computeEnv: { id: "ce1", name: "aws", platform: "aws-batch" },
    },
  });
  expect(action.hookUrl).toBe(`https://api.github.com/repos/nf-core/rnaseq/hooks/${action.hookId}`);
  const { actions } = await expectAnswer(e, "GET /actions", "/actions?workspaceId=42");
  expect(actions[0]).toMatchObject({
    endpoint: action.hookUrl,
    pipeline: launch.pipeline,
    status: "ACTIVE",
  });

  const { workflowId } = await expectAnswer(
    e,
    "POST /actions/{actionId}/launch",
    `/actions/${actionId}/launch?workspaceId=42`,
    { body: { params: { sample: "s1" } } },
  );
  const run = e.state.runs.get(workflowId)!;
  expect([run.workspaceId, run.pipeline, run.launch.workDir]).toEqual([
    42,
    launch.pipeline,
    "s3://acme/work",
  ]);
  expect(JSON.parse(String(run.launch.paramsText))).toEqual({
    outdir: "s3://acme/out",
    sample: "s1",
  });
  const described = await expectAnswer(
    e,
    "GET /actions/{actionId}",
    `/actions/${actionId}?workspaceId=42`,
  );
  expect(described.action.event).toMatchObject({ discriminator: "tower", workflowId });
  expect((await api(e, `/actions/${actionId}/launch`, { method: "POST", body: {} })).status).toBe(
    403,
  );

  const tower = await expectAnswer(e, "POST /actions", "/actions?workspaceId=42", {
    body: { name: "by-hand", source: "tower", launch },
  });
  const { actions: both } = await expectAnswer(e, "GET /actions", "/actions?workspaceId=42");
  expect(both[1]).toMatchObject({
    status: "ACTIVE",
    endpoint: `${e.url}/actions/${tower.actionId}/launch?workspaceId=42`,
    usageCmd: expect.stringContaining(`/actions/${tower.actionId}/launch?workspaceId=42`),
  });
});
