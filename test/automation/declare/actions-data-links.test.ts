import { expect, test } from "vitest";
import { applyPlan, exportResources, planResources } from "../../../src/index.js";
import { ACTIONS, onApplied, ENV, EXPORTED_ENV, FILE } from "./files.js";

const MORE = ACTIONS;

const at = (text: string) => ({ text, file: "actions.yml" });

test("actions and data links are created with their references' ids, then unchanged", async () => {
  await onApplied(async ({ emu, client }) => {
    const plan = await planResources(client, [at(MORE)]);
    expect(plan.steps.map((s) => `${s.action} ${s.kind} ${s.name} ${s.at}`)).toEqual([
      "create data-links results actions.yml:2",
      "create actions nightly actions.yml:10",
    ]);
    const [env] = emu.state.computeEnvs.list(42);
    const credentials = emu.state.credentials.list(42).find((c) => c.name === "aws-keys");
    expect(plan.steps[1]!.changes).toContainEqual({ field: "launch.computeEnvId", to: env!.id });
    const from = emu.requests.length;
    expect((await applyPlan(client, plan)).failed).toBeUndefined();
    const sent = emu.requests.slice(from).filter((r) => r.method === "POST");
    expect(sent.map((r) => [r.operationId, r.body])).toEqual([
      [
        "CreateCustomDataLink",
        {
          name: "results",
          resourceRef: "s3://bucket/results",
          provider: "aws",
          credentialsId: credentials!.id,
          description: "the results",
          type: "bucket",
        },
      ],
      [
        "CreateAction",
        {
          name: "nightly",
          source: "tower",
          launch: {
            pipeline: "https://github.com/nextflow-io/hello",
            computeEnvId: env!.id,
            workDir: "s3://bucket/work",
            revision: "master",
            paramsText: expect.stringContaining("s3://bucket/nightly"),
          },
        },
      ],
    ]);
    const again = await planResources(client, [at(MORE)]);
    expect(again.steps.map((s) => s.action)).toEqual(["unchanged", "unchanged"]);
    expect(again.pending).toBe(0);
  });
});

test("a changed launch updates the action in place; a changed type replaces it, and says why", async () => {
  await onApplied(async ({ emu, client }) => {
    await applyPlan(client, await planResources(client, [at(MORE)]));
    const [action] = emu.state.resources.list("/actions", 42);
    const moved = MORE.replace("revision: master", "revision: dev");
    const plan = await planResources(client, [at(moved)]);
    const changed = plan.steps.filter((s) => s.action !== "unchanged");
    expect(changed).toMatchObject([
      { action: "update", changes: [{ field: "launch.revision", from: "master", to: "dev" }] },
    ]);
    const from = emu.requests.length;
    await applyPlan(client, plan);
    expect(emu.requests.slice(from).map((r) => r.operationId)).toContain("UpdateAction");
    expect(emu.state.resources.list("/actions", 42)).toMatchObject([{ id: action!.id }]);
    expect((await planResources(client, [at(moved)])).pending).toBe(0);
    const github = moved.replace("type: tower", "type: github");
    const replace = (await planResources(client, [at(github)])).steps.find(
      (s) => s.action !== "unchanged",
    );
    expect(replace).toMatchObject({
      action: "replace",
      changes: [{ field: "source", from: "tower", to: "github" }],
      reason: "source cannot change in place (PUT /actions/{actionId} does not change source)",
    });
    const described = MORE.replace("description: the results", "description: all results");
    const update = await planResources(client, [at(described)]);
    expect(update.steps[0]).toMatchObject({
      action: "update",
      changes: [{ field: "description", from: "the results", to: "all results" }],
    });
    const [link] = emu.state.dataLinks.list(42);
    await applyPlan(client, update);
    expect(emu.state.dataLinks.list(42)).toMatchObject([
      { id: link!.id, description: "all results" },
    ]);
  });
});

test("--delete deletes actions before pipelines and compute envs, data links before credentials", async () => {
  await onApplied(async ({ emu, client }) => {
    await applyPlan(client, await planResources(client, [at(MORE)]));
    const plan = await planResources(client, [FILE, at(MORE)], { env: ENV, delete: true });
    // Then acme.yml's, credentials after pipelines and compute envs (plan-apply.test.ts).
    expect(plan.steps.map((s) => `${s.action} ${s.kind}`).slice(0, 4)).toEqual([
      "delete actions",
      "delete data-links",
      "delete datasets",
      "delete pipelines",
    ]);
    expect((await applyPlan(client, plan)).failed).toBeUndefined();
    expect(emu.state.resources.list("/actions", 42)).toEqual([]);
  });
});

test("a reference to a compute env or credentials that exist nowhere, or an action without its type, is a plan error at its line", async () => {
  await onApplied(async ({ client }) => {
    await expect(
      planResources(client, [at(MORE.replace("compute-env: aws-eu", "compute-env: aws-us"))]),
    ).rejects.toThrow(
      'actions.yml:10: actions "nightly": compute environment "aws-us" is neither in the files nor in acme/prod',
    );
    await expect(
      planResources(client, [at(MORE.replace("credentials: aws-keys", "credentials: gone"))]),
    ).rejects.toThrow(
      'actions.yml:2: data-links "results": credentials "gone" is neither in the files nor in acme/prod',
    );
    await expect(
      planResources(client, [at(MORE.replace("  - type: tower\n    name", "  - name"))]),
    ).rejects.toThrow('actions.yml:10: actions "nightly": type required');
  });
});

test("an export writes actions and data links back: applied to an empty workspace, a copy with nothing left to do", async () => {
  await onApplied(async ({ client }) => {
    await applyPlan(client, await planResources(client, [at(MORE)]));
    const exported = await exportResources(client);
    expect(exported).toContain(`data-links:
  - name: results
    uri: s3://bucket/results
    provider: aws
    description: the results
    credentials: aws-keys
actions:
  - name: nightly
    type: tower
    pipeline: https://github.com/nextflow-io/hello
    params:
      outdir: s3://bucket/nightly
    work-dir: s3://bucket/work
    revision: master
    compute-env: aws-eu
`);
    const env = EXPORTED_ENV;
    const dev = client.withWorkspace("acme/dev");
    const copy = await applyPlan(dev, await planResources(dev, [exported], { env }));
    expect(copy.failed).toBeUndefined();
    expect(copy.applied.map((s) => s.kind).slice(-2)).toEqual(["data-links", "actions"]);
    expect((await planResources(dev, [exported], { env })).pending).toBe(0);
  });
});
