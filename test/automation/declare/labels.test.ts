/**
 * seqerakit's `labels` key on pipelines and compute envs (tw's `--labels`): labels by name,
 * those missing created, sent by id; a pipeline's changed labels are an update in place, a
 * compute env's a replace (no operation changes them).
 */
import { expect, test } from "vitest";
import { applyPlan, exportResources, planResources } from "../../../src/index.js";
import { clientOf, seededEmulator, withEmulator } from "../setup.js";
import { ENV, EXPORTED_ENV, FILE, onApplied } from "./files.js";

/** FILE with labels on its compute env (resource labels only, as tw's) and its pipeline. */
const LABELLED = FILE.replace(
  "    wave: true\n",
  "    wave: true\n    labels: team=genomics\n",
).replace("    revision: master\n", "    revision: master\n    labels: 'team=genomics,nightly'\n");

/** The labels of the workspace, by id: "name" or "name=value". */
function labelTexts(emu: Awaited<ReturnType<typeof seededEmulator>>): Map<number, string> {
  return new Map(
    emu.state.labels
      .list(42)
      .map((l) => [l.id, l.value == null ? l.name : `${l.name}=${l.value}`] as const),
  );
}

test("labels are created when missing and sent by id with the compute env and the pipeline; a second plan has nothing to do", async () => {
  await withEmulator(seededEmulator({}, { autoAdvance: true }), async (emu) => {
    const client = clientOf(emu);
    const plan = await planResources(client, [LABELLED], { env: ENV });
    expect(plan.steps.filter((s) => s.kind !== "labels")).toContainEqual(
      expect.objectContaining({
        kind: "pipelines",
        action: "create",
        changes: expect.arrayContaining([{ field: "labels", to: ["nightly", "team=genomics"] }]),
      }),
    );
    expect((await applyPlan(client, plan)).failed).toBeUndefined();
    const texts = labelTexts(emu);
    const sent = (operationId: string) =>
      (
        (emu.requests.find((r) => r.operationId === operationId)?.body as { labelIds?: number[] })
          ?.labelIds ?? []
      ).map((id) => texts.get(id));
    expect(sent("CreateComputeEnv")).toEqual(["team=genomics"]);
    expect(sent("CreatePipeline")).toEqual(["nightly", "team=genomics"]);
    // nightly was created by the pipeline's create, as tw's LabelsFinder creates it.
    expect(emu.requests.filter((r) => r.operationId === "CreateLabel")).toHaveLength(2);
    expect((await planResources(client, [LABELLED], { env: ENV })).pending).toBe(0);
  });
});

test("a pipeline's changed labels are an update in place (its id and launch kept); a compute env's are a replace, said why", async () => {
  await onApplied(async ({ emu, client }) => {
    const [pipeline] = emu.state.pipelines.list(42);
    const plan = await planResources(client, [LABELLED], { env: ENV });
    expect(plan.steps.filter((s) => s.action !== "unchanged")).toMatchObject([
      {
        kind: "compute-envs",
        action: "replace",
        changes: [{ field: "labels", from: [], to: ["team=genomics"] }],
        reason:
          "labels cannot change in place (PUT /compute-envs/{computeEnvId} does not change labels)",
      },
      { kind: "pipelines", action: "replace" },
    ]);
    const pipelineOnly = FILE.replace(
      "    revision: master\n",
      "    revision: master\n    labels: 'team=genomics,nightly'\n",
    );
    const update = await planResources(client, [pipelineOnly], { env: ENV });
    expect(update.steps.filter((s) => s.action !== "unchanged")).toMatchObject([
      {
        kind: "pipelines",
        action: "update",
        changes: [{ field: "labels", from: [], to: ["nightly", "team=genomics"] }],
      },
    ]);
    const from = emu.requests.length;
    expect((await applyPlan(client, update)).failed).toBeUndefined();
    expect(
      emu.requests.slice(from).flatMap((r) => (r.method === "GET" ? [] : [r.operationId])),
    ).toEqual(["CreateLabel", "UpdatePipeline"]);
    const texts = labelTexts(emu);
    expect(emu.state.pipelines.list(42)).toMatchObject([{ id: pipeline!.id }]);
    expect(emu.state.pipelines.list(42)[0]!.labelIds.map((id) => texts.get(id))).toEqual([
      "nightly",
      "team=genomics",
    ]);
    expect((await planResources(client, [pipelineOnly], { env: ENV })).pending).toBe(0);
    // Fewer labels: the others are taken off.
    const fewer = pipelineOnly.replace("'team=genomics,nightly'", "nightly");
    expect(
      (await applyPlan(client, await planResources(client, [fewer], { env: ENV }))).failed,
    ).toBeUndefined();
    expect(emu.state.pipelines.list(42)[0]!.labelIds.map((id) => texts.get(id))).toEqual([
      "nightly",
    ]);
    expect((await planResources(client, [fewer], { env: ENV })).pending).toBe(0);
  });
});

test("a compute env's label without a value is refused at its line, as tw's --labels refuses it", async () => {
  await withEmulator(seededEmulator(), async (emu) => {
    const plain = LABELLED.replace("labels: team=genomics\n", "labels: nightly\n");
    await expect(
      planResources(clientOf(emu), [{ text: plain, file: "acme.yml" }], { env: ENV }),
    ).rejects.toThrow(
      'acme.yml:17: compute-envs "aws-eu": labels: "nightly" is not a resource label (name=value)',
    );
  });
});

test("an export writes the labels back as seqerakit does; applied to an empty workspace, a copy with nothing left to do", async () => {
  await withEmulator(seededEmulator({}, { autoAdvance: true }), async (emu) => {
    const client = clientOf(emu);
    await applyPlan(client, await planResources(client, [LABELLED], { env: ENV }));
    const exported = await exportResources(client);
    expect(exported).toContain("    credentials: aws-keys\n    labels: team=genomics\n");
    expect(exported).toContain("    compute-env: aws-eu\n    labels: nightly,team=genomics\n");
    const dev = client.withWorkspace("acme/dev");
    const env = EXPORTED_ENV;
    expect((await applyPlan(dev, await planResources(dev, [exported], { env }))).failed).toBe(
      undefined,
    );
    expect((await planResources(dev, [exported], { env })).pending).toBe(0);
    expect(await exportResources(dev)).toBe(exported);
  });
});
