import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "vitest";
import { applyPlan, planResources } from "../../../src/index.js";
import { clientOf, seededEmulator } from "../setup.js";
import { CREATED, ENV, FILE } from "./files.js";

test("apply creates every resource in order of dependence, and a second plan has nothing to do", async () => {
  const emu = await seededEmulator({}, { autoAdvance: true });
  try {
    const client = clientOf(emu);
    const plan = await planResources(client, [{ text: FILE, file: "acme.yml" }], { env: ENV });
    expect(plan.steps.map((s) => `${s.action} ${s.kind} ${s.name}`)).toEqual(CREATED);
    const secrets = JSON.stringify(plan);
    expect(secrets).not.toContain("s3cr3t-value");
    expect(secrets).not.toContain("tok-value");
    const result = await applyPlan(client, plan);
    expect(result.failed).toBeUndefined();
    expect(result.applied).toHaveLength(6);
    const again = await planResources(client, [{ text: FILE, file: "acme.yml" }], { env: ENV });
    expect(again.steps.filter((s) => s.action !== "unchanged")).toEqual([]);
    expect(again.pending).toBe(0);
  } finally {
    await emu.close();
  }
});

/** The emulator with FILE applied, and a client of it. */
async function applied() {
  const emu = await seededEmulator({}, { autoAdvance: true });
  const client = clientOf(emu);
  const plan = await planResources(client, [FILE], { env: ENV });
  expect((await applyPlan(client, plan)).failed).toBeUndefined();
  return { emu, client };
}

test("a changed description updates the compute env in place (its id kept); a changed work dir replaces it, and the plan says why", async () => {
  const { emu, client } = await applied();
  try {
    const [env] = emu.state.computeEnvs.list(42);
    const described = FILE.replace("    max-cpus: 500", "    max-cpus: 500\n    description: EU");
    const plan = await planResources(client, [described], { env: ENV });
    const changed = plan.steps.filter((s) => s.action !== "unchanged");
    expect(changed).toEqual([
      {
        kind: "compute-envs",
        name: "aws-eu",
        workspace: "acme/prod",
        action: "update",
        changes: [{ field: "description", to: "EU" }],
        at: "document 1:17",
      },
    ]);
    await applyPlan(client, plan);
    expect(emu.state.computeEnvs.list(42)).toMatchObject([{ id: env!.id, description: "EU" }]);
    const moved = FILE.replace("s3://bucket/work", "s3://other/work");
    const replace = (await planResources(client, [moved], { env: ENV })).steps.find(
      (s) => s.action !== "unchanged",
    );
    expect(replace).toMatchObject({
      action: "replace",
      changes: [{ field: "config.workDir", from: "s3://bucket/work", to: "s3://other/work" }],
      reason:
        "config.workDir cannot change in place (PUT /compute-envs/{computeEnvId} does not change config)",
    });
  } finally {
    await emu.close();
  }
});

test("a failure halfway reports what was applied, what failed and what was not attempted; a re-run completes the rest", async () => {
  const emu = await seededEmulator({}, { autoAdvance: true });
  try {
    const client = clientOf(emu);
    emu.setHandler("CreateComputeEnv", () => ({
      status: 400,
      body: { message: "Quota exceeded" },
    }));
    const first = await applyPlan(client, await planResources(client, [FILE], { env: ENV }));
    const names = (steps: { kind: string }[]) => steps.map((s) => s.kind);
    expect(names(first.applied)).toEqual(["labels", "credentials", "secrets"]);
    expect(first.failed?.step.kind).toBe("compute-envs");
    expect(String(first.failed?.error)).toContain("Quota exceeded");
    expect(names(first.notAttempted)).toEqual(["pipelines", "datasets"]);
    emu.clearHandlers();
    const rest = await planResources(client, [FILE], { env: ENV });
    expect(rest.steps.map((s) => s.action)).toEqual([
      ...["unchanged", "unchanged", "unchanged"],
      ...["create", "create", "create"],
    ]);
    expect((await applyPlan(client, rest)).failed).toBeUndefined();
    expect((await planResources(client, [FILE], { env: ENV })).pending).toBe(0);
  } finally {
    await emu.close();
  }
});

test("--delete deletes what the files name, dependents first", async () => {
  const { emu, client } = await applied();
  try {
    const plan = await planResources(client, [FILE], { env: ENV, delete: true });
    expect(plan.steps.map((s) => `${s.action} ${s.kind}`)).toEqual([
      "delete datasets",
      "delete pipelines",
      "delete compute-envs",
      "delete secrets",
      "delete credentials",
      "delete labels",
    ]);
    const from = emu.requests.length;
    expect((await applyPlan(client, plan)).failed).toBeUndefined();
    expect(
      emu.requests
        .slice(from)
        .map((r) => r.operationId)
        .filter((id) => id?.startsWith("Delete")),
    ).toEqual([
      "DeleteDatasetV2",
      "DeletePipeline",
      "DeleteComputeEnv",
      "DeletePipelineSecret",
      "DeleteCredentials",
      "DeleteLabel",
    ]);
    expect((await planResources(client, [FILE], { env: ENV, delete: true })).steps).toEqual([]);
  } finally {
    await emu.close();
  }
});

test("the same name in two workspaces is two resources", async () => {
  const emu = await seededEmulator({}, { autoAdvance: true });
  try {
    const client = clientOf(emu);
    const two = `secrets:\n  - name: TOKEN\n    value: a\n    workspace: acme/prod\n  - name: TOKEN\n    value: b\n    workspace: acme/dev\n`;
    await applyPlan(client, await planResources(client, [two]));
    expect(emu.state.secrets.list(42).map((s) => s.name)).toEqual(["TOKEN"]);
    expect(emu.state.secrets.list(43).map((s) => s.name)).toEqual(["TOKEN"]);
    expect((await planResources(client, [two])).pending).toBe(0);
  } finally {
    await emu.close();
  }
});

test("on_exists: fail refuses a resource that differs, ignore leaves it; neither when it is the same", async () => {
  const { emu, client } = await applied();
  try {
    const drift = (mode: string) =>
      `datasets:\n  - name: samples\n    description: other\n    workspace: acme/prod\n    on_exists: ${mode}\n`;
    await expect(planResources(client, [{ text: drift("fail"), file: "l.yml" }])).rejects.toThrow(
      'l.yml:2: datasets "samples" exists and differs (description): set on_exists: update to change it, or ignore',
    );
    const ignored = await planResources(client, [drift("ignore")]);
    expect(ignored.steps).toMatchObject([{ action: "unchanged", reason: "on_exists: ignore" }]);
  } finally {
    await emu.close();
  }
});

test("a compute env written with the keys of seqerakit's template is sent as the API's fields", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "declare-"));
  const emu = await seededEmulator({
    credentials: [{ name: "aws-creds", workspaceId: 42, id: "c1" }],
  });
  try {
    await writeFile(path.join(dir, "pre-run.sh"), "echo pre\n");
    await writeFile(
      path.join(dir, "ce.yml"),
      `compute-envs:
  - type: aws-batch
    config-mode: forge
    name: batch
    workspace: acme/prod
    credentials: aws-creds
    region: eu-west-1
    work-dir: s3://bucket
    pre-run: ./pre-run.sh
    provisioning-model: SPOT
    fusion-v2: false
    fusionSnapshots: true
    instance-types: 'c6i,r6i'
    no-ebs-auto-scale: true
    max-cpus: 500
    subnets: 'subnet-1,subnet-2'
    wait: AVAILABLE
    on_exists: ignore
`,
    );
    const client = clientOf(emu);
    const text = await readFile(path.join(dir, "ce.yml"), "utf8");
    const plan = await planResources(client, [{ text, file: path.join(dir, "ce.yml") }]);
    const from = emu.requests.length;
    // wait: AVAILABLE waits until the service has made it (CREATING until then).
    const waited = applyPlan(client, plan);
    await expect.poll(() => emu.state.computeEnvs.list(42).length).toBe(1);
    emu.state.computeEnvs.update(emu.state.computeEnvs.list(42)[0]!.id, { status: "AVAILABLE" });
    expect((await waited).failed).toBeUndefined();
    const served = emu.requests.slice(from);
    // The wait polled the new compute env.
    expect(served.map((r) => r.operationId)).toContain("DescribeComputeEnv");
    const created = served.find((r) => r.operationId === "CreateComputeEnv");
    expect(created?.body).toEqual({
      computeEnv: {
        name: "batch",
        platform: "aws-batch",
        credentialsId: "c1",
        config: {
          discriminator: "aws-batch",
          region: "eu-west-1",
          workDir: "s3://bucket",
          preRunScript: "echo pre\n",
          fusion2Enabled: false,
          fusionSnapshots: true,
          forge: {
            type: "SPOT",
            instanceTypes: ["c6i", "r6i"],
            ebsAutoScale: false,
            maxCpus: 500,
            subnets: ["subnet-1", "subnet-2"],
          },
        },
      },
    });
  } finally {
    await emu.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test("a replaced compute env: the pipeline using it is replaced too (a changed launch would be a draft), and a second plan has nothing to do", async () => {
  const { emu, client } = await applied();
  try {
    const moved = FILE.replace("eu-west-1", "eu-central-1");
    const plan = await planResources(client, [moved], { env: ENV });
    expect(plan.steps.filter((s) => s.action !== "unchanged")).toMatchObject([
      { kind: "compute-envs", action: "replace" },
      {
        kind: "pipelines",
        action: "replace",
        changes: [
          { field: "launch.computeEnvId", to: '(compute-envs "aws-eu", replaced by this plan)' },
        ],
        reason:
          "launch.computeEnvId cannot change in place (PUT /pipelines/{pipelineId} does not change launch)",
      },
    ]);
    expect((await applyPlan(client, plan)).failed).toBeUndefined();
    const [env] = emu.state.computeEnvs.list(42);
    expect(env).toMatchObject({ region: "eu-central-1" });
    expect(emu.state.pipelines.list(42)[0]?.launch).toMatchObject({ computeEnvId: env!.id });
    expect((await planResources(client, [moved], { env: ENV })).pending).toBe(0);
  } finally {
    await emu.close();
  }
});

test("a resource named twice is refused with both places", async () => {
  const emu = await seededEmulator();
  try {
    const twice = "secrets:\n  - name: a\n    value: x\n---\nsecrets:\n  - name: a\n    value: y\n";
    await expect(planResources(clientOf(emu), [{ text: twice, file: "l.yml" }])).rejects.toThrow(
      'l.yml:6: secrets "a" is named at l.yml:2 too',
    );
  } finally {
    await emu.close();
  }
});

test("a pipeline's new description is an update in place: its id, launch and labels are kept", async () => {
  const { emu, client } = await applied();
  try {
    const [pipeline] = emu.state.pipelines.list(42);
    const label = emu.state.labels.add({ name: "kept", workspaceId: 42 });
    emu.state.pipelines.update(pipeline!.id, { labelIds: [label.id] });
    const described = FILE.replace(
      "    revision: master",
      "    revision: master\n    description: hi",
    );
    const plan = await planResources(client, [described], { env: ENV });
    expect(plan.steps.filter((s) => s.action !== "unchanged")).toMatchObject([
      { kind: "pipelines", action: "update", changes: [{ field: "description", to: "hi" }] },
    ]);
    expect((await applyPlan(client, plan)).failed).toBeUndefined();
    expect(emu.state.pipelines.list(42)).toMatchObject([
      { id: pipeline!.id, description: "hi", labelIds: [label.id] },
    ]);
    expect((await planResources(client, [described], { env: ENV })).pending).toBe(0);
  } finally {
    await emu.close();
  }
});

test("file-path reads tw's exported JSON, params-file a params file, relative to the file; several files are one plan", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "declare-"));
  const emu = await seededEmulator({
    credentials: [{ name: "aws-creds", workspaceId: 42, id: "c1" }],
  });
  try {
    // What `tw compute-envs export` writes: the configuration, tagged with its platform.
    await writeFile(
      path.join(dir, "ce.json"),
      JSON.stringify({ discriminator: "aws-batch", region: "eu-west-1", workDir: "s3://w" }),
    );
    await writeFile(path.join(dir, "params.yaml"), "genome: GRCh38\n");
    const computeEnvs =
      "compute-envs:\n  - name: exported\n    workspace: acme/prod\n    credentials: aws-creds\n    file-path: ce.json\n";
    const pipelines =
      "pipelines:\n  - name: rnaseq\n    workspace: acme/prod\n    url: https://github.com/nf-core/rnaseq\n    compute-env: exported\n    params-file: params.yaml\n    params:\n      outdir: s3://out\n";
    const sources = [
      { text: computeEnvs, file: path.join(dir, "ce.yml") },
      { text: pipelines, file: path.join(dir, "pipelines.yml") },
    ];
    const client = clientOf(emu);
    const plan = await planResources(client, sources);
    expect(plan.steps.map((s) => `${s.action} ${s.kind}`)).toEqual([
      "create compute-envs",
      "create pipelines",
    ]);
    expect((await applyPlan(client, plan)).failed).toBeUndefined();
    const [env] = emu.state.computeEnvs.list(42);
    expect(env).toMatchObject({
      platform: "aws-batch",
      region: "eu-west-1",
      workDir: "s3://w",
      credentialsId: "c1",
    });
    const launch = emu.state.pipelines.list(42)[0]?.launch;
    expect(launch).toMatchObject({ computeEnvId: env!.id });
    expect(launch?.paramsText).toContain("genome: GRCh38");
    expect(launch?.paramsText).toContain("outdir: s3://out");
    expect((await planResources(client, sources)).pending).toBe(0);
  } finally {
    await emu.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test("launch entries launch a run each time they are applied, with their settings by tw's names", async () => {
  const { emu, client } = await applied();
  try {
    const file = `launch:
  - name: hello-run
    workspace: acme/prod
    pipeline: https://github.com/nextflow-io/hello
    compute-env: aws-eu
    revision: main
    profile: test,docker
    params:
      outdir: s3://bucket/out
`;
    const plan = await planResources(client, [file]);
    expect(plan.steps).toMatchObject([
      {
        kind: "launch",
        name: "hello-run",
        action: "launch",
        changes: [{ field: "pipeline", to: "https://github.com/nextflow-io/hello" }],
      },
    ]);
    expect(plan.pending).toBe(1);
    // The service made the compute environment: a launch takes an AVAILABLE one.
    emu.state.computeEnvs.update(emu.state.computeEnvs.list(42)[0]!.id, { status: "AVAILABLE" });
    expect((await applyPlan(client, plan)).failed).toBeUndefined();
    const launched = emu.requests.filter((r) => r.operationId === "CreateWorkflowLaunch");
    expect(launched.map((r) => (r.body as { launch: object }).launch)).toMatchObject([
      {
        runName: "hello-run",
        pipeline: "https://github.com/nextflow-io/hello",
        revision: "main",
        configProfiles: ["test", "docker"],
        computeEnvId: emu.state.computeEnvs.list(42)[0]!.id,
      },
    ]);
    expect((await planResources(client, [file], { delete: true })).steps).toEqual([]);
  } finally {
    await emu.close();
  }
});
