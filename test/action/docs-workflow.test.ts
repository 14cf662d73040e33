/**
 * The workflow of docs/github-action.md: its action step's inputs, with the expressions the
 * runner would fill in given test values, run against the emulator.
 */
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { startEmulator } from "seqera-api-client/testing";
import { parse } from "yaml";
import { expect, test } from "vitest";
import { EXIT } from "../../src/cli/exit-codes.js";
import { root } from "../cli/cli.js";
import { runStep, stepsDir } from "./step.js";

test("the documented step launches, follows and reports the run", async () => {
  const page = await readFile(path.join(root, "docs", "github-action.md"), "utf8");
  const yaml = /<!-- workflow: [^\n]*-->\n\n```yaml\n([\s\S]*?)\n```/.exec(page)![1]!;
  const workflow = parse(yaml);
  const job = Object.values(workflow.jobs)[0] as { steps: { uses?: string; with?: object }[] };
  const step = job.steps.find((s) => s.uses?.includes("/seqera-api-client@"))!;
  const emulator = await startEmulator({
    seed: {
      workspaces: [{ org: "acme", name: "genomics", id: 42 }],
      computeEnvs: [
        { id: "ce0", name: "primary", workspaceId: 42 },
        { id: "ce1", name: "aws-batch", workspaceId: 42, workDir: "s3://acme-work" },
      ],
    },
    autoAdvance: true,
  });
  const context: Record<string, string> = {
    "secrets.TOWER_ACCESS_TOKEN": emulator.token,
    "github.sha": "3f2c1e0",
    "github.ref_name": "v2.1.0",
    "github.run_id": "987",
  };
  const inputs = Object.fromEntries(
    Object.entries(step.with!).map(([name, value]) => [
      name,
      String(value).replace(/\$\{\{\s*([\w.]+)\s*\}\}/g, (_, key: string) => context[key]!),
    ]),
  );
  const dir = await stepsDir();
  try {
    // The checkout the workflow makes: the params file in the workspace.
    await mkdir(path.join(dir, "tests"));
    await writeFile(path.join(dir, "tests", "full-test.yaml"), "outdir: s3://acme-results\n");
    const result = await runStep(dir, emulator, { ...inputs, poll_interval: "20ms" }, { cwd: dir });
    expect(result.code).toBe(EXIT.ok);
    expect(result.outputs).toMatchObject({ status: "SUCCEEDED", exitCode: "0" });
    const { launch } = emulator.requests.find((r) => r.operationId === "CreateWorkflowLaunch")!
      .body as { launch: Record<string, unknown> };
    expect(launch).toMatchObject({
      pipeline: "https://github.com/nf-core/rnaseq",
      computeEnvId: "ce1",
      workDir: "s3://acme-work",
      revision: "3f2c1e0",
      configProfiles: ["test_full"],
      runName: "full-test-987",
      nextflowVersion: "25.04.8",
      paramsText: expect.stringContaining("s3://acme-results"),
    });
    expect(emulator.state.labels.list(42).map((l) => [l.name, l.value ?? null])).toEqual(
      expect.arrayContaining([
        ["full-test", null],
        ["release", "v2.1.0"],
      ]),
    );
    expect(result.stdout).toContain("Completed at:");
  } finally {
    await emulator.close();
    await rm(dir, { recursive: true, force: true });
  }
});
