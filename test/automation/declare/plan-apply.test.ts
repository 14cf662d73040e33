import { expect, test } from "vitest";
import { applyPlan, planResources } from "../../../src/index.js";
import { clientOf, seededEmulator, withEmulator } from "../setup.js";
import { CREATED, ENV, FILE, onApplied } from "./files.js";

test("apply creates every resource in order of dependence, and a second plan has nothing to do", async () => {
  await withEmulator(seededEmulator({}, { autoAdvance: true }), async (emu) => {
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
  });
});

test("a changed description updates the compute env in place (its id kept); a changed work dir replaces it, and the plan says why", async () => {
  await onApplied(async ({ emu, client }) => {
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
  });
});

test("a failure halfway reports what was applied, what failed and what was not attempted; a re-run completes the rest", async () => {
  await withEmulator(seededEmulator({}, { autoAdvance: true }), async (emu) => {
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
  });
});

test("--delete deletes what the files name, dependents first", async () => {
  await onApplied(async ({ emu, client }) => {
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
  });
});

test("the same name in two workspaces is two resources", async () => {
  await withEmulator(seededEmulator({}, { autoAdvance: true }), async (emu) => {
    const client = clientOf(emu);
    const two = `secrets:\n  - name: TOKEN\n    value: a\n    workspace: acme/prod\n  - name: TOKEN\n    value: b\n    workspace: acme/dev\n`;
    await applyPlan(client, await planResources(client, [two]));
    expect(emu.state.secrets.list(42).map((s) => s.name)).toEqual(["TOKEN"]);
    expect(emu.state.secrets.list(43).map((s) => s.name)).toEqual(["TOKEN"]);
    expect((await planResources(client, [two])).pending).toBe(0);
  });
});

test("on_exists: fail refuses a resource that differs, ignore leaves it; neither when it is the same", async () => {
  await onApplied(async ({ emu, client }) => {
    const drift = (mode: string) =>
      `datasets:\n  - name: samples\n    description: other\n    workspace: acme/prod\n    on_exists: ${mode}\n`;
    await expect(planResources(client, [{ text: drift("fail"), file: "l.yml" }])).rejects.toThrow(
      'l.yml:2: datasets "samples" exists and differs (description): set on_exists: update to change it, or ignore',
    );
    const ignored = await planResources(client, [drift("ignore")]);
    expect(ignored.steps).toMatchObject([{ action: "unchanged", reason: "on_exists: ignore" }]);
  });
});

test("a resource named twice is refused with both places", async () => {
  await withEmulator(seededEmulator(), async (emu) => {
    const twice = "secrets:\n  - name: a\n    value: x\n---\nsecrets:\n  - name: a\n    value: y\n";
    await expect(planResources(clientOf(emu), [{ text: twice, file: "l.yml" }])).rejects.toThrow(
      'l.yml:6: secrets "a" is named at l.yml:2 too',
    );
  });
});

test("an entry without a workspace is in the client's, named as the client was given it", async () => {
  await withEmulator(seededEmulator(), async (emu) => {
    const file = "secrets:\n  - name: NAMED\n    value: $TOKEN\n";
    const workspaceOf = async (workspace: string) =>
      (await planResources(clientOf(emu).withWorkspace(workspace), [file], { env: ENV })).steps[0]
        ?.workspace;
    expect(await workspaceOf("acme/dev")).toBe("acme/dev");
    expect(await workspaceOf("43")).toBe("43");
  });
});
