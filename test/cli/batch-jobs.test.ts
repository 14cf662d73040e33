/**
 * The scripts of docs/cli.md for many launches and for secrets (test/cli/launch-rows.sh,
 * set-secret.sh), run as a user would against the emulator.
 */
import { rm } from "node:fs/promises";
import { type Emulator } from "seqera-api-client/testing";
import { afterAll, beforeAll, expect, test } from "vitest";
import { EXIT } from "../../src/cli/exit-codes.js";
import { cliAndEmulator, requireJq, runScript, type BuiltCli } from "./cli.js";

let cli: BuiltCli;
let emulator: Emulator;
let work: string;
beforeAll(async () => {
  requireJq();
  ({ cli, emulator, work } = await cliAndEmulator(
    {
      seed: {
        workspaces: [{ org: "acme", name: "prod", id: 42 }],
        credentials: [{ id: "c1", name: "aws-prod", provider: "aws", workspaceId: 42 }],
        computeEnvs: [
          { id: "ce1", name: "batch", workspaceId: 42, status: "AVAILABLE", credentialsId: "c1" },
        ],
        pipelines: [{ name: "rnaseq", workspaceId: 42, launch: { computeEnvId: "ce1" } }],
      },
    },
    "seqera-batch-",
  ));
});
afterAll(async () => {
  await emulator?.close();
  await rm(work, { recursive: true, force: true });
});

const script = (name: string, args: string[], env: Record<string, string> = {}) =>
  runScript(cli.main, name, args, {
    work,
    emulator,
    env: { TOWER_WORKSPACE_ID: "acme/prod", POLL: "20ms", ...env },
  });

test("launch-rows.sh: two rows launched, the third's error on its line, exit 2", async () => {
  const result = await script("launch-rows.sh", ["rnaseq"]);
  expect(result.code).toBe(EXIT.usage);
  expect(result.stdout).toBe(
    "1 liver: launched\n" +
      "2 brain, left: launched\n" +
      '3 heart: No pipeline named "rnaseqq" in workspace 42; did you mean "rnaseq"?\n',
  );
  expect(result.stderr).toBe(
    'seqera-api launch --rows: row 3: No pipeline named "rnaseqq" in workspace 42; did you mean "rnaseq"?\n',
  );
  const sent = emulator.requests
    .filter((r) => r.operationId === "CreateWorkflowLaunch")
    .map((r) => (r.body as { launch: Record<string, unknown> }).launch);
  expect(
    sent.map((l) => [l.runName, l.revision, l.configProfiles, (l.labelIds as []).length]),
  ).toEqual(
    expect.arrayContaining([
      ["liver-1", "3.14.0", ["test"], 2],
      ["brain-1", "3.14.0", ["test"], 2],
    ]),
  );
  expect(sent).toHaveLength(2);
});

test("set-secret.sh: the secret and the keys through standard input, then the compute env", async () => {
  const result = await script("set-secret.sh", ["DB_PASSWORD", "aws-prod", "batch"], {
    SECRET_VALUE: "hunter2-but-longer",
    AWS_KEY: "AKIA-NEW",
    AWS_SECRET: "new-secret-key",
  });
  expect(result.stderr).toBe("");
  expect(result.code).toBe(EXIT.ok);
  expect(result.stdout).toMatch(
    /^\{"secretId":\d+,"name":"DB_PASSWORD","created":true\}\nuses them: batch\nbatch: AVAILABLE\n$/,
  );
  expect(emulator.state.credentials.get("c1")!.keys).toMatchObject({
    accessKey: "AKIA-NEW",
    secretKey: "new-secret-key",
  });
  const secret = emulator.requests.find((r) => r.operationId === "CreatePipelineSecret");
  expect(secret?.body).toEqual({ name: "DB_PASSWORD", value: "hunter2-but-longer" });
});
