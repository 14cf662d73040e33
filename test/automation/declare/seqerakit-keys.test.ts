/**
 * What seqerakit's files hold besides names and plain fields: its template's compute env keys,
 * tw's exported JSON (file-path), params files, pipelines on a replaced compute env, launches.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "vitest";
import { applyPlan, planResources } from "../../../src/index.js";
import { clientOf, seededEmulator, withEmulator } from "../setup.js";
import { ENV, FILE, onApplied } from "./files.js";

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
  await onApplied(async ({ emu, client }) => {
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
  });
});

test("a pipeline's new description is an update in place: its id, launch and labels are kept", async () => {
  await onApplied(async ({ emu, client }) => {
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
  });
});

/**
 * A folder holding what `tw compute-envs export` writes (ce.json: the configuration, tagged
 * with its platform), and an emulator with the credentials it names.
 */
async function exportedComputeEnv() {
  const dir = await mkdtemp(path.join(tmpdir(), "declare-"));
  await writeFile(
    path.join(dir, "ce.json"),
    JSON.stringify({ discriminator: "aws-batch", region: "eu-west-1", workDir: "s3://w" }),
  );
  const emu = await seededEmulator({
    credentials: [{ name: "aws-creds", workspaceId: 42, id: "c1" }],
  });
  return { dir, emu };
}

test("file-path reads tw's exported JSON, params-file a params file, relative to the file; several files are one plan", async () => {
  const { dir, emu } = await exportedComputeEnv();
  try {
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
  await onApplied(async ({ emu, client }) => {
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
  });
});

test("Azure credentials as seqerakit's template writes them (batch-name, storage-name: tw's options)", async () => {
  await withEmulator(seededEmulator(), async (emu) => {
    const client = clientOf(emu);
    const file = `credentials:
  - type: azure
    name: azure-creds
    workspace: acme/prod
    batch-key: $AZURE_BATCH_KEY
    batch-name: my_batch
    storage-key: $AZURE_STORAGE_KEY
    storage-name: my_storage
`;
    const env = { AZURE_BATCH_KEY: "batch-secret-1", AZURE_STORAGE_KEY: "storage-secret-2" };
    expect((await applyPlan(client, await planResources(client, [file], { env }))).failed).toBe(
      undefined,
    );
    const created = emu.requests.find((r) => r.operationId === "CreateCredentials");
    expect(created?.body).toMatchObject({
      credentials: {
        name: "azure-creds",
        provider: "azure",
        keys: {
          batchName: "my_batch",
          batchKey: "batch-secret-1",
          storageName: "my_storage",
          storageKey: "storage-secret-2",
        },
      },
    });
  });
});

test("Google credentials' key is the service account file, read relative to the YAML; an AWS key is refused", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "declare-"));
  const emu = await seededEmulator();
  try {
    const client = clientOf(emu);
    await writeFile(path.join(dir, "sa.json"), '{"type": "service_account"}\n');
    const file = path.join(dir, "creds.yml");
    const text = `credentials:
  - type: google
    name: gcp
    workspace: acme/prod
    key: $GOOGLE_KEY
`;
    const env = { GOOGLE_KEY: "sa.json" };
    const plan = await planResources(client, [{ text, file }], { env });
    expect(JSON.stringify(plan)).not.toContain("service_account");
    expect((await applyPlan(client, plan)).failed).toBeUndefined();
    const created = emu.requests.find((r) => r.operationId === "CreateCredentials");
    expect(created?.body).toMatchObject({
      credentials: { provider: "google", keys: { data: '{"type": "service_account"}\n' } },
    });
    const aws = text.replace("type: google", "type: aws");
    await expect(planResources(client, [{ text: aws, file }], { env })).rejects.toThrow(
      `${file}:2: credentials "gcp": key is a file of google or ssh credentials, not aws`,
    );
  } finally {
    await emu.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test("a file the YAML names that is not beside it is read from the working directory, as tw reads seqerakit's paths", async () => {
  const { dir, emu } = await exportedComputeEnv();
  try {
    // seqerakit's e2e file names its JSON from the repository's root: ./examples/yaml/….
    const fromHere = `./${path.relative(process.cwd(), path.join(dir, "ce.json"))}`;
    const text = `compute-envs:\n  - name: exported\n    workspace: acme/prod\n    credentials: aws-creds\n    file-path: ${fromHere}\n`;
    const plan = await planResources(clientOf(emu), [
      { text, file: path.join(dir, "yaml", "ce.yml") },
    ]);
    expect(plan.steps[0]?.changes).toContainEqual({ field: "config.region", to: "eu-west-1" });
  } finally {
    await emu.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test("an organization the files create has only the users the files put in it", async () => {
  const emu = await seededEmulator();
  try {
    const file = `organizations:
  - name: newco
    full-name: New Co
members:
  - user: bo@newco.org
    organization: newco
teams:
  - name: staff
    organization: newco
    members: [bo@newco.org]
workspaces:
  - name: lab
    organization: newco
    full-name: The lab
participants:
  - name: bo@newco.org
    type: MEMBER
    workspace: newco/lab
    role: LAUNCH
  - name: cy@newco.org
    workspace: newco/lab
    role: LAUNCH
`;
    await expect(planResources(clientOf(emu), [file])).rejects.toThrow(
      'document 1:20: participants "cy@newco.org": user "cy@newco.org" is neither in the files nor in organization newco',
    );
    const plan = await planResources(clientOf(emu), [file.slice(0, file.indexOf("  - name: cy"))]);
    expect(plan.steps.map((s) => `${s.action} ${s.kind} ${s.name}`)).toEqual([
      "create organizations newco",
      "create members newco/bo@newco.org",
      "create teams newco/staff",
      "create workspaces newco/lab",
      "create participants bo@newco.org",
    ]);
  } finally {
    await emu.close();
  }
});
