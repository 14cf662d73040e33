import { startEmulator, type Emulator } from "seqera-api-client/testing";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { stubTwVariables } from "./tw-variables.js";

// docs/launch.md's example, run as a user would (the tw CLI's variables) on a seeded emulator.
let emulator: Emulator;

beforeAll(async () => {
  emulator = await startEmulator({
    seed: {
      organizations: [{ name: "acme" }],
      workspaces: [{ org: "acme", name: "prod", id: 7 }],
      computeEnvs: [
        { id: "ce-aws", name: "aws", workspaceId: 7, primary: true, workDir: "s3://bucket/work" },
        { id: "ce-azure", name: "azure", workspaceId: 7, workDir: "az://container/work" },
      ],
      pipelines: [
        {
          name: "rnaseq",
          workspaceId: 7,
          launch: { computeEnvId: "ce-aws", paramsText: '{"input": "s.csv"}' },
        },
      ],
      labels: [{ name: "nightly", workspaceId: 7 }],
    },
  });
  stubTwVariables(emulator);
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await emulator.close();
});

test("launch with tw's settings, resume, rerun afresh, cancel", async () => {
  // The example's module makes its client at import, from the variables set above.
  const { launchNightly, rerun } = await import("./launch-settings.js");
  const launched = await launchNightly();
  expect(launched.createdLabels).toEqual(["team=bio"]);
  // The run starts (resolving its commit): a run that can be resumed.
  while (emulator.state.runs.get(launched.workflowId)!.status !== "RUNNING") {
    emulator.state.runs.advance(launched.workflowId);
  }
  const result = await rerun(launched.workflowId);
  const launches = emulator.requests.filter(
    (r) => r.method === "POST" && r.path === "/workflow/launch",
  );
  expect(launches).toHaveLength(3);
  const first = (launches[0]!.body as { launch: Record<string, unknown> }).launch;
  expect(first).toMatchObject({ computeEnvId: "ce-azure", workDir: "az://container/work" });
  expect(first).toMatchObject({ stubRun: true });
  expect(JSON.parse(first.paramsText as string)).toEqual({ input: "s.csv", genome: "GRCm39" });
  expect(first).not.toHaveProperty("resume");
  expect(first).not.toHaveProperty("optimizationId");
  const resumed = (launches[1]!.body as { launch: Record<string, unknown> }).launch;
  expect(resumed).toMatchObject({ resume: true });
  const afresh = (launches[2]!.body as { launch: Record<string, unknown> }).launch;
  expect(afresh.resume ?? false).toBe(false);
  const cancelled = emulator.requests.filter(
    (r) => r.method === "POST" && r.path === `/workflow/${result.afresh}/cancel`,
  );
  expect(cancelled).toHaveLength(1);
});

test("params from a YAML file, and as text over it: merged over the saved params", async () => {
  const { launchFromFile } = await import("./launch-settings.js");
  const dir = await mkdtemp(path.join(tmpdir(), "params-"));
  try {
    const file = path.join(dir, "params.yaml");
    await writeFile(file, "# from the samplesheet job\noutdir: s3://out\ngenome: GRCh38\n");
    const workflowId = await launchFromFile(file);
    const { paramsText } = emulator.state.runs.get(workflowId)!.launch;
    expect(JSON.parse(paramsText as string)).toEqual({
      input: "s.csv",
      outdir: "s3://out",
      genome: "GRCm39",
    });
  } finally {
    await rm(dir, { recursive: true });
  }
});
