import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "vitest";
import { applyPlan, exportResources, planResources } from "../../../src/index.js";
import { onApplied, ENV, EXPORTED_ENV, FILE } from "./files.js";

/** A studio as seqerakit's e2e file writes it, on acme.yml's compute env. */
const STUDIO = `studios:
  - name: rstudio
    description: An RStudio environment
    workspace: acme/prod
    template: public.cr.seqera.io/platform/data-studio-ride:2025.04.1-0.8
    compute-env: aws-eu
    cpu: 2
    memory: 4096
    lifespan: 8
    on_exists: update
`;

const at = (text: string) => ({ text, file: "studios.yml" });

test("a studio is created on its compute env, then unchanged; a changed one is replaced, and the plan says why", async () => {
  await onApplied(async ({ emu, client }) => {
    const [env] = emu.state.computeEnvs.list(42);
    const plan = await planResources(client, [at(STUDIO)]);
    expect(plan.steps.map((s) => `${s.action} ${s.kind} ${s.name} ${s.at}`)).toEqual([
      "create studios rstudio studios.yml:2",
    ]);
    const from = emu.requests.length;
    expect((await applyPlan(client, plan)).failed).toBeUndefined();
    const sent = emu.requests.slice(from).filter((r) => r.method === "POST");
    expect(sent.map((r) => [r.operationId, r.body])).toEqual([
      [
        "CreateDataStudio",
        {
          name: "rstudio",
          description: "An RStudio environment",
          dataStudioToolUrl: "public.cr.seqera.io/platform/data-studio-ride:2025.04.1-0.8",
          computeEnvId: env!.id,
          configuration: { cpu: 2, memory: 4096, lifespanHours: 8 },
        },
      ],
    ]);
    expect((await planResources(client, [at(STUDIO)])).pending).toBe(0);
    const bigger = STUDIO.replace("memory: 4096", "memory: 8192");
    const replace = await planResources(client, [at(bigger)]);
    expect(replace.steps).toMatchObject([
      {
        action: "replace",
        changes: [{ field: "configuration.memory", from: 4096, to: 8192 }],
        reason:
          "PUT /studios/{sessionId} changes a stopped studio only, and the plan does not stop it",
      },
    ]);
    const before = emu.requests.length;
    expect((await applyPlan(client, replace)).failed).toBeUndefined();
    expect(
      emu.requests.slice(before).flatMap((r) => (r.method === "GET" ? [] : [r.operationId])),
    ).toEqual(["DeleteDataStudio", "CreateDataStudio"]);
    expect((await planResources(client, [at(bigger)])).pending).toBe(0);
  });
});

test("--delete deletes studios before the compute envs they run in", async () => {
  await onApplied(async ({ client }) => {
    await applyPlan(client, await planResources(client, [at(STUDIO)]));
    const plan = await planResources(client, [FILE, at(STUDIO)], { env: ENV, delete: true });
    expect(plan.steps.map((s) => `${s.action} ${s.kind}`).slice(0, 5)).toEqual([
      "delete studios",
      "delete datasets",
      "delete pipelines",
      "delete compute-envs",
      "delete secrets",
    ]);
    expect((await applyPlan(client, plan)).failed).toBeUndefined();
  });
});

test("a missing compute env, and seqerakit's keys not read yet, are refused at their line", async () => {
  await onApplied(async ({ client }) => {
    await expect(
      planResources(client, [at(STUDIO.replace("compute-env: aws-eu", "compute-env: gone"))]),
    ).rejects.toThrow(
      'studios.yml:2: studios "rstudio": compute environment "gone" is neither in the files nor in acme/prod',
    );
    await expect(planResources(client, [at(`${STUDIO}    wait: RUNNING\n`)])).rejects.toThrow(
      "studios.yml:11: studios: wait is not supported yet: waiting for a studio's status is not planned yet",
    );
    // tw's --mount-data and --mount-data-ids are exclusive.
    await expect(
      planResources(client, [at(`${STUDIO}    mount-data: a\n    mount-data-ids: b\n`)]),
    ).rejects.toThrow(
      'studios.yml:2: studios "rstudio": mount-data and mount-data-ids both set configuration.mountData: give one of them',
    );
    await expect(planResources(client, [at(`${STUDIO}    labels: rstudio\n`)])).rejects.toThrow(
      'studios.yml:2: studios "rstudio": labels: "rstudio" is not a resource label (name=value)',
    );
  });
});

test("an export writes a studio back: applied to an empty workspace, a copy with nothing left to do", async () => {
  await onApplied(async ({ client }) => {
    await applyPlan(client, await planResources(client, [at(STUDIO)]));
    const exported = await exportResources(client);
    expect(exported).toContain(`studios:
  - name: rstudio
    template: public.cr.seqera.io/platform/data-studio-ride:2025.04.1-0.8
    description: An RStudio environment
    cpu: 2
    memory: 4096
    lifespan: 8
`);
    expect(exported).toContain("    compute-env: aws-eu\n");
    const dev = client.withWorkspace("acme/dev");
    const copy = await applyPlan(dev, await planResources(dev, [exported], { env: EXPORTED_ENV }));
    expect(copy.failed).toBeUndefined();
    expect(copy.applied.at(-1)).toMatchObject({ kind: "studios", name: "rstudio" });
    expect((await planResources(dev, [exported], { env: EXPORTED_ENV })).pending).toBe(0);
  });
});

test("tw's studio keys: created stopped (auto-start: false), data links mounted by name, the conda file read, labels by name; then nothing to do, and exported by name", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "declare-"));
  try {
    await onApplied(async ({ emu, client }) => {
      await writeFile(path.join(dir, "env.yml"), "dependencies:\n  - numpy\n");
      const file = path.join(dir, "studios.yml");
      const text = `data-links:
  - name: results
    workspace: acme/prod
    uri: s3://bucket/results
    provider: aws
    credentials: aws-keys
${STUDIO}    auto-start: false
    mount-data: results
    conda-env-yml: env.yml
    labels: team=genomics,owner=ana
`;
      const plan = await planResources(client, [{ text, file }]);
      expect(plan.steps.at(-1)?.changes).toEqual(
        expect.arrayContaining([
          {
            field: "configuration.mountData",
            to: ['(data-links "results", created by this plan)'],
          },
          { field: "configuration.condaEnvironment", to: "dependencies:\n  - numpy\n" },
          { field: "labels", to: ["owner=ana", "team=genomics"] },
        ]),
      );
      expect((await applyPlan(client, plan)).failed).toBeUndefined();
      const [link] = emu.state.dataLinks.list(42);
      const created = emu.requests.find((r) => r.operationId === "CreateDataStudio")!;
      expect(created.search).toContain("autoStart=false");
      const labels = new Map(emu.state.labels.list(42).map((l) => [l.id, `${l.name}=${l.value}`]));
      const body = created.body as { labelIds: number[]; configuration: object };
      expect(body.labelIds.map((id) => labels.get(id))).toEqual(["owner=ana", "team=genomics"]);
      expect(body.configuration).toEqual({
        cpu: 2,
        memory: 4096,
        lifespanHours: 8,
        mountData: [link!.id],
        condaEnvironment: "dependencies:\n  - numpy\n",
      });
      expect(emu.state.studios.list(42)).toMatchObject([{ name: "rstudio", status: "stopped" }]);
      expect((await planResources(client, [{ text, file }])).pending).toBe(0);
      // tw's --mount-data-ids: the same links by id.
      const byId = text.replace("mount-data: results", `mount-data-ids: ${link!.id}`);
      expect((await planResources(client, [{ text: byId, file }])).pending).toBe(0);
      // tw's --mount-data-resource-refs (--mount-data-uris before): by URI, in the files or not.
      const byUri = text.replace("mount-data: results", "mount-data-uris: s3://bucket/results");
      expect((await planResources(client, [{ text: byUri, file }])).pending).toBe(0);
      const studioOnly = byUri
        .slice(byUri.indexOf("studios:"))
        .replace("mount-data-uris", "mount-data-resource-refs");
      expect((await planResources(client, [{ text: studioOnly, file }])).pending).toBe(0);
      await expect(
        planResources(client, [{ text: studioOnly.replace("/results", "/other"), file }]),
      ).rejects.toThrow(
        `${file}:2: studios "rstudio": data link "s3://bucket/other" is neither in the files nor in acme/prod`,
      );
      const exported = await exportResources(client);
      expect(exported).toContain(
        "    compute-env: aws-eu\n    mount-data: results\n    labels: owner=ana,team=genomics\n",
      );
      expect(exported).not.toContain("mount-data-ids");
      const dev = client.withWorkspace("acme/dev");
      const env = EXPORTED_ENV;
      expect((await applyPlan(dev, await planResources(dev, [exported], { env }))).failed).toBe(
        undefined,
      );
      expect((await planResources(dev, [exported], { env })).pending).toBe(0);
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
