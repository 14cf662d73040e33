/**
 * `seqera-api plan`, `apply` and `export` against the emulator: what a terminal user and a CI
 * job see (stdout, stderr, exit codes), and what the service received.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Emulator } from "seqera-api-client/testing";
import { afterAll, beforeAll, expect, test } from "vitest";
import { EXIT } from "../../src/cli/exit-codes.js";
import { ACTIONS, ENV, FILE } from "../automation/declare/files.js";
import { cliAndEmulator, runCli, runScript, type BuiltCli } from "./cli.js";

let cli: BuiltCli;
let emulator: Emulator;
let work: string;
beforeAll(async () => {
  ({ cli, emulator, work } = (await cliAndEmulator(
    {
      rateLimit: false,
      autoAdvance: true,
      seed: {
        organizations: [{ name: "acme" }],
        workspaces: [
          { org: "acme", name: "prod", id: 42 },
          { org: "acme", name: "dev", id: 43 },
          { org: "acme", name: "ci", id: 44 },
        ],
      },
    },
    "declare-",
  )) as { cli: BuiltCli; emulator: Emulator; work: string });
  await writeFile(path.join(work, "acme.yml"), FILE);
});
afterAll(() => emulator?.close());

const seqera = (args: string[], options: { stdin?: string; env?: Record<string, string> } = {}) =>
  runCli(cli.main, args, {
    cwd: work,
    env: {
      TOWER_API_ENDPOINT: emulator.url,
      TOWER_ACCESS_TOKEN: emulator.token,
      ...ENV,
      ...options.env,
    },
    ...(options.stdin !== undefined && { stdin: options.stdin }),
  });

test("plan shows what apply will do (exit 6 with --detailed-exitcode), apply does it, and a second plan has nothing to do", async () => {
  const from = emulator.requests.length;
  const planned = await seqera(["plan", "acme.yml", "--detailed-exitcode"]);
  expect(planned.code).toBe(EXIT.pending);
  expect(planned.stdout).toContain(
    '+ create credentials "aws-keys" in acme/prod\n    name: "aws-keys"',
  );
  expect(planned.stdout).toContain("    keys.secretKey: (redacted)\n");
  expect(planned.stdout).not.toContain(ENV.AWS_SECRET);
  expect(planned.stdout).toMatch(
    /Plan: 6 to create, 0 to update, 0 to replace, 0 to delete; 0 unchanged\.\n$/,
  );
  // A plan only reads.
  expect(emulator.requests.slice(from).filter((r) => r.method !== "GET")).toEqual([]);

  const applied = await seqera(["apply", "acme.yml"]);
  expect(applied.code).toBe(EXIT.ok);
  expect(applied.stderr).toContain('applying: create compute-envs "aws-eu" in acme/prod\n');
  expect(applied.stdout).toMatch(/Applied 6 changes\.\n$/);

  const again = await seqera(["plan", "acme.yml", "--detailed-exitcode"]);
  expect(again).toMatchObject({
    code: EXIT.ok,
    stdout: "Nothing to do: 6 resources are as the files say.\n",
  });
});

test("one compute env field changed: the plan shows that field, as text and as JSON lines", async () => {
  await seqera(["apply", "acme.yml"]);
  const changed = FILE.replace("    max-cpus: 500", "    max-cpus: 500\n    description: EU");
  const text = await seqera(["plan", "-"], { stdin: changed });
  expect(text.stdout).toBe(
    '~ update compute-envs "aws-eu" in acme/prod\n    description: (none) → "EU"\nPlan: 0 to create, 1 to update, 0 to replace, 0 to delete; 5 unchanged.\n',
  );
  const json = await seqera(["plan", "-", "--json", "--targets", "compute-envs"], {
    stdin: changed,
  });
  expect(
    json.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as unknown),
  ).toEqual([
    {
      kind: "compute-envs",
      name: "aws-eu",
      workspace: "acme/prod",
      action: "update",
      changes: [{ field: "description", to: "EU" }],
      at: "-:17",
    },
  ]);
});

test("a failure halfway says what was applied, what failed and what was not attempted, exits non-zero; a re-run completes", async () => {
  const file = FILE.replaceAll("acme/prod", "acme/dev");
  emulator.setHandler("CreatePipeline", () => ({
    status: 400,
    body: { message: "Invalid repository" },
  }));
  try {
    const failed = await seqera(["apply", "-"], { stdin: file });
    expect(failed.code).toBe(EXIT.usage);
    expect(failed.stderr).toContain(
      'seqera-api apply: failed at create pipelines "hello" in acme/dev: 400 POST /pipelines: Invalid repository',
    );
    expect(failed.stderr).toContain(
      '  applied: labels "team=genomics", credentials "aws-keys", secrets "API_TOKEN", compute-envs "aws-eu"\n  not attempted: datasets "samples"\n',
    );
  } finally {
    emulator.clearHandlers();
  }
  const rerun = await seqera(["apply", "-"], { stdin: file });
  expect(rerun.code).toBe(EXIT.ok);
  expect(rerun.stdout).toContain(
    "Plan: 2 to create, 0 to update, 0 to replace, 0 to delete; 4 unchanged.",
  );
  expect(emulator.state.pipelines.list(43).map((p) => p.name)).toEqual(["hello"]);
});

test("bad input is refused with its file:line and exit 2, before any request", async () => {
  const from = emulator.requests.length;
  const result = await seqera(["plan", "-"], {
    stdin: "pipelines:\n  - name: x\n    compute_env: aws\n",
  });
  expect(result).toMatchObject({
    code: EXIT.usage,
    stderr: 'seqera-api: -:3: pipelines takes no key "compute_env" (did you mean compute-env?)\n',
  });
  expect(emulator.requests.length).toBe(from);
});

test("export writes the workspace as a file apply takes", async () => {
  await seqera(["apply", "acme.yml"]);
  const exported = await seqera([
    "export",
    "--workspace",
    "acme/prod",
    "--kinds",
    "secrets,labels",
  ]);
  expect(exported).toMatchObject({
    code: EXIT.ok,
    stdout:
      "labels:\n  - name: team\n    value: genomics\nsecrets:\n  - name: API_TOKEN\n    value: $API_TOKEN_VALUE\n",
  });
});

test("entries without a workspace are in the command's, named as the user named it", async () => {
  const file = "secrets:\n  - name: NAMED\n    value: $TOKEN\n";
  for (const [args, env, shown] of [
    [["-w", "acme/dev"], {}, "acme/dev"],
    [[], { TOWER_WORKSPACE_ID: "acme/dev" }, "acme/dev"],
    [[], { TOWER_WORKSPACE_ID: "43" }, "43"],
  ] as const) {
    const planned = await seqera(["plan", "-", ...args], { stdin: file, env });
    expect(planned).toMatchObject({ code: EXIT.ok });
    expect(planned.stdout).toContain(`+ create secrets "NAMED" in ${shown}\n`);
  }
});

test("the docs' CI job: a pull request shows the plan, main applies it and finds no drift after", async () => {
  await mkdir(path.join(work, "seqera"), { recursive: true });
  await writeFile(path.join(work, "seqera", "acme.yml"), FILE.replaceAll("acme/prod", "acme/ci"));
  const options = { work, emulator, env: ENV };
  const pr = await runScript(cli.main, "workspaces-ci.sh", [], {
    ...options,
    env: { ...ENV, GITHUB_EVENT_NAME: "pull_request" },
  });
  expect(pr.code).toBe(0);
  expect(pr.stdout).toContain(
    "Plan: 6 to create, 0 to update, 0 to replace, 0 to delete; 0 unchanged.",
  );
  expect(emulator.state.computeEnvs.list(44)).toEqual([]);
  const main = await runScript(cli.main, "workspaces-ci.sh", [], options);
  expect(main.code).toBe(0);
  expect(main.stdout).toMatch(
    /Applied 6 changes\.\nNothing to do: 6 resources are as the files say\.\n$/,
  );
  expect(emulator.state.computeEnvs.list(44).map((c) => c.name)).toEqual(["aws-eu"]);
});

test("an action's changed revision is an update, its changed type a replace that says why", async () => {
  await writeFile(path.join(work, "actions.yml"), ACTIONS);
  expect((await seqera(["apply", "acme.yml", "actions.yml"])).code).toBe(EXIT.ok);
  const changed = ACTIONS.replace("revision: master", "revision: dev");
  const update = await seqera(["plan", "-", "--targets", "actions"], { stdin: changed });
  expect(update.stdout).toBe(
    '~ update actions "nightly" in acme/prod\n    launch.revision: "master" → "dev"\nPlan: 0 to create, 1 to update, 0 to replace, 0 to delete; 0 unchanged.\n',
  );
  const github = ACTIONS.replace("type: tower", "type: github");
  const replace = await seqera(["plan", "-", "--targets", "actions"], { stdin: github });
  expect(replace.stdout).toBe(
    '-/+ replace actions "nightly" in acme/prod: source cannot change in place (PUT /actions/{actionId} does not change source)\n    source: "tower" → "github"\nPlan: 0 to create, 0 to update, 1 to replace, 0 to delete; 0 unchanged.\n',
  );
  const from = emulator.requests.length;
  expect((await seqera(["apply", "-", "--targets", "actions"], { stdin: changed })).code).toBe(
    EXIT.ok,
  );
  expect(
    emulator.requests.slice(from).flatMap((r) => (r.method === "GET" ? [] : [r.operationId])),
  ).toEqual(["UpdateAction"]);
});

test("a bad file is refused at its line before any request, a workspace given or not", async () => {
  await writeFile(path.join(work, "bad.yml"), "labels:\n  - name: a\n    valu: b\n");
  for (const workspace of [[], ["-w", "acme/prod"]]) {
    const from = emulator.requests.length;
    const result = await seqera(["plan", "bad.yml", ...workspace]);
    expect(result).toMatchObject({
      code: EXIT.usage,
      stderr: 'seqera-api: bad.yml:3: labels takes no key "valu" (did you mean value?)\n',
    });
    expect(emulator.requests.slice(from)).toEqual([]);
  }
});
