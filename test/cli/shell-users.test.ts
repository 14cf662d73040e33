/**
 * The CLI as a tw user meets it: tw's command words lead to ours, relaunch and cancel work on a
 * run, and failures speak in the CLI's terms (its variables and flags, the command that was
 * run), never in the library's options or its internal lookups.
 */
import { type Emulator } from "seqera-api-client/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { EXIT } from "../../src/cli/exit-codes.js";
import { runCli, type BuiltCli, type RunOptions, cliAndEmulator } from "./cli.js";

let cli: BuiltCli;
let emulator: Emulator;
beforeAll(async () => {
  ({ cli, emulator } = await cliAndEmulator({
    seed: {
      workspaces: [
        { org: "acme", name: "prod", id: 42 },
        { org: "acme", name: "bare", id: 44 },
      ],
      computeEnvs: [
        { name: "aws-ce", workspaceId: 42, status: "AVAILABLE", id: "ce1", primary: true },
      ],
      pipelines: [
        {
          name: "rnaseq",
          workspaceId: 42,
          launch: { computeEnvId: "ce1", workDir: "s3://b/work", paramsText: "{}" },
        },
      ],
    },
    autoAdvance: true,
  }));
});
afterAll(async () => {
  await emulator?.close();
});
beforeEach(() => emulator.clearHandlers());

const env = (more: Record<string, string> = {}) => ({
  TOWER_API_ENDPOINT: emulator.url,
  TOWER_ACCESS_TOKEN: emulator.token,
  TOWER_WORKSPACE_ID: "acme/prod",
  ...more,
});
const seqera = (args: string[], options: RunOptions = {}) =>
  runCli(cli.main, args, { env: env(), ...options });
const launches = () => emulator.requests.filter((r) => r.operationId === "CreateWorkflowLaunch");

describe("tw's command words", () => {
  test.each([
    [
      ["run"],
      /^seqera-api: seqera-api has no "run" command: use seqera-api launch <pipeline>, relaunch <workflowId>, wait <workflowId>, logs <workflowId>, cancel <workflowId> \(each with --help\)\.\n$/,
    ],
    [
      ["runs", "list"],
      /has no "runs list" command: use seqera-api runs \[--status FAILED\] \[--after 24h\] \[--label name\]\.\n$/,
    ],
    // tw's own flags (-i) do not get in the way of the answer.
    [
      ["runs", "view", "-i", "5mDfiUtqyptDib"],
      /use seqera-api DescribeWorkflow -p workflowId=<id>\./,
    ],
    [["runs", "relaunch", "-i", "x"], /use seqera-api relaunch <workflowId> \[--no-resume\]\./],
    // `pipelines` is a command here too: alone, its usage.
    [
      ["pipelines"],
      /^seqera-api: Usage: seqera-api pipelines versions list\|add\|default <pipeline>/,
    ],
    [
      ["pipelines", "list"],
      /has no "pipelines list" command: use seqera-api ListPipelines --paginate/,
    ],
    [["compute-envs"], /its operations are list: ListComputeEnvs, view: DescribeComputeEnv/],
    // The sub-command decides: tw's `studios stop` is StopDataStudio, not the studios list.
    [
      ["studios", "stop", "-i", "a1b2"],
      /"studios stop" command: use seqera-api StopDataStudio -p sessionId=<id>\.\n$/,
    ],
    [
      ["participants", "add"],
      /use seqera-api participants set-role <user\|team> <role> \[--team\] -w <org>\/<workspace> \(adds the participant when absent\)\.\n$/,
    ],
    [["participants", "update"], /use seqera-api participants set-role /],
    [
      ["teams", "members", "add"],
      /"teams members add" command: use seqera-api teams add <org>\/<team> <user>\.\.\. \(adds those not in it\)\.\n$/,
    ],
    // Ours: without its arguments, its usage.
    [
      ["data-links", "browse"],
      /^seqera-api: Usage: seqera-api data-links browse <name> \[folder\]\n$/,
    ],
    [["teams", "add"], /^seqera-api: Usage: seqera-api teams add <org>\/<team> \[user\.\.\.\]\n$/],
    [["teams", "members"], /"teams members" command: use seqera-api ListOrganizationTeamMembers /],
    [
      ["teams", "nosuch"],
      /"teams" command: its operations are list: ListOrganizationTeams, view: /,
    ],
  ])("%j: exit 2, pointing at ours, no request", async (args, pattern) => {
    const before = emulator.requests.length;
    const result = await seqera(args);
    expect(result).toMatchObject({ code: EXIT.usage, stdout: "" });
    expect(result.stderr).toMatch(pattern);
    expect(result.stderr).not.toContain("Ga4gh");
    expect(emulator.requests.length).toBe(before);
  });

  test.each([
    ["relauch", "relaunch"],
    ["cancle", "cancel"],
  ])("a misspelt command %s: did you mean %s", async (word, command) => {
    const result = await seqera([word, "4Bi5xBK6E2Nbhj"]);
    expect(result).toMatchObject({ code: EXIT.usage, stdout: "" });
    expect(result.stderr).toMatch(new RegExp(`^seqera-api: .*Did you mean ${command}\\b`));
  });

  test("tw's --wait SUCCEEDED: exit 2, saying what --wait does here", async () => {
    const result = await seqera(["launch", "rnaseq", "--wait", "SUCCEEDED"]);
    expect(result).toMatchObject({ code: EXIT.usage, stdout: "" });
    expect(result.stderr).toBe(
      'seqera-api: --wait takes no status ("SUCCEEDED"): it waits for the run to end, and the exit code says how it ended (0 SUCCEEDED, 1 FAILED or CANCELLED).\n',
    );
  });

  test("--help lists relaunch and cancel, and each has its own", async () => {
    const general = await seqera(["--help"]);
    expect(general.stdout).toMatch(/seqera-api relaunch <workflowId> +resume a run/);
    expect(general.stdout).toMatch(/seqera-api cancel <workflowId> +cancel a run/);
    const relaunch = await seqera(["relaunch", "--help"]);
    expect(relaunch).toMatchObject({ code: EXIT.ok, stderr: "" });
    expect(relaunch.stdout).toMatch(/^seqera-api relaunch <workflowId> \[options\]/);
    for (const flag of ["--no-resume", "--wait", "--timeout", "--compute-env", "--params-file"])
      expect(relaunch.stdout).toContain(flag);
    expect(relaunch.stdout).not.toContain("--disable-optimization");
    const launch = await seqera(["launch", "--help"]);
    for (const flag of ["--config", "--pre-run", "--post-run", "--main-script", "--entry-name"])
      expect(launch.stdout).toContain(flag);
    for (const flag of ["--schema-name", "--pull-latest", "--stub-run", "--disable-optimization"])
      expect(launch.stdout).toContain(flag);
    for (const flag of [
      "--work-dir",
      "--profile",
      "-c, --compute-env",
      "-l, --labels",
      "-n, --name",
    ])
      expect(launch.stdout).toContain(flag);
  });
});

describe("relaunch and cancel on the emulator", () => {
  test("cancel: the run ends CANCELLED; wait on it then exits 1", async () => {
    const run = emulator.state.runs.add({ workspaceId: 42, status: "RUNNING" });
    const result = await seqera(["cancel", run.id]);
    expect(result).toMatchObject({ code: EXIT.ok, stderr: "" });
    expect(JSON.parse(result.stdout)).toEqual({ workflowId: run.id, cancelled: true });
    expect(emulator.state.runs.get(run.id)!.status).toBe("CANCELLED");
    const waited = await seqera(["wait", run.id, "--poll-interval", "20ms"]);
    expect(waited.code).toBe(EXIT.runFailed);
  });

  test("relaunch --wait: the failed run resumed in its session, exit 0 when it succeeds", async () => {
    const launched = await seqera(["launch", "rnaseq"]);
    const { workflowId } = JSON.parse(launched.stdout);
    emulator.state.runs.advance(workflowId); // RUNNING: it has reported its commit
    emulator.state.runs.finish(workflowId, "FAILED", "Process ALIGN exited 1");
    const failed = emulator.state.runs.get(workflowId)!;
    const result = await seqera(["relaunch", workflowId, "--wait", "--poll-interval", "20ms"]);
    expect(result, result.stderr).toMatchObject({ code: EXIT.ok, stderr: "" });
    const { workflowId: again, run } = JSON.parse(result.stdout);
    expect(again).not.toBe(workflowId);
    expect(run).toMatchObject({ id: again, status: "SUCCEEDED" });
    const { launch } = launches().at(-1)!.body as { launch: Record<string, unknown> };
    expect(launch).toMatchObject({
      resume: true,
      sessionId: failed.sessionId,
      computeEnvId: "ce1",
    });
  });

  test("a run of another workspace: exit 4, the message points at --workspace", async () => {
    const run = emulator.state.runs.add({ workspaceId: 42, status: "RUNNING" });
    const result = await seqera(["cancel", run.id], { env: env({ TOWER_WORKSPACE_ID: "" }) });
    expect(result.code).toBe(EXIT.auth);
    expect(result.stderr).toMatch(
      /^seqera-api cancel: 403 POST \/workflow\/\{workflowId\}\/cancel: Forbidden: the run is not in the token owner's personal workspace \(no --workspace or TOWER_WORKSPACE_ID\)/,
    );
    expect(emulator.state.runs.get(run.id)!.status).toBe("RUNNING");
  });
});

describe("messages in the CLI's terms", () => {
  test("no token: TOWER_ACCESS_TOKEN is not set, nothing about options", async () => {
    const result = await seqera(["wait", "x"], { env: { TOWER_API_ENDPOINT: emulator.url } });
    expect(result).toMatchObject({ code: EXIT.usage, stdout: "" });
    expect(result.stderr).toMatch(
      /^seqera-api: No Seqera access token: TOWER_ACCESS_TOKEN is not set/,
    );
    expect(result.stderr).not.toMatch(/pass `?token/);
  });

  test.each([
    [{ TOWER_API_ENDPOINT: "http://seqera.example.com/api" }, [], "TOWER_API_ENDPOINT"],
    [{}, ["--url", "http://seqera.example.com/api"], "--url"],
  ])(
    "plain http:// to another host (%j %j): how to allow it from the CLI",
    async (vars, flags, from) => {
      const result = await seqera(["ListWorkflows", ...flags], { env: env(vars) });
      expect(result).toMatchObject({ code: EXIT.usage, stdout: "" });
      expect(result.stderr).toBe(
        `seqera-api: Refusing plain http:// to seqera.example.com (${from}): the access token would travel unencrypted. Use https://, or set SEQERA_ALLOW_INSECURE_HTTP=1 if you accept that.\n`,
      );
    },
  );

  test("credentials in the URL: the token goes in TOWER_ACCESS_TOKEN", async () => {
    const url = emulator.url.replace("http://", "http://me:secret@");
    const result = await seqera(["ListWorkflows"], { env: env({ TOWER_API_ENDPOINT: url }) });
    expect(result.code).toBe(EXIT.usage);
    expect(result.stderr).toContain("put the access token in TOWER_ACCESS_TOKEN");
    expect(result.stderr).not.toContain("secret");
  });

  test("no primary compute environment: --compute-env, not the library's option", async () => {
    const before = launches().length;
    const result = await seqera(["launch", "https://github.com/nextflow-io/hello", "-w", "44"]);
    expect(result).toMatchObject({ code: EXIT.usage, stdout: "" });
    expect(result.stderr).toBe(
      "seqera-api: Workspace 44 has no primary AVAILABLE compute environment: choose one with --compute-env (-c).\n",
    );
    expect(launches()).toHaveLength(before);
  });

  test("a run that reported no commit: relaunch says how to run it from scratch", async () => {
    const run = emulator.state.runs.add({ workspaceId: 42, status: "FAILED" });
    emulator.setHandler("DescribeWorkflowLaunch", () => ({
      status: 200,
      body: { launch: { id: "l1", pipeline: "https://github.com/x/y", resumeCommitId: null } },
    }));
    const before = launches().length;
    const result = await seqera(["relaunch", run.id]);
    expect(launches()).toHaveLength(before);
    expect(result).toMatchObject({ code: EXIT.usage, stdout: "" });
    expect(result.stderr).toBe(
      `seqera-api: Run ${run.id} cannot be resumed: it reported no commit id. Run it again from scratch: seqera-api relaunch ${run.id} --no-resume\n`,
    );
  });

  // Not a word of the message: every error line is cleaned of the token.
  const REFUSED_TOKEN = "old-token-7c41e9d2";

  test("a refused token on /user-info: only the token is blamed", async () => {
    const result = await seqera(["UserInfo"], { env: env({ TOWER_ACCESS_TOKEN: REFUSED_TOKEN }) });
    expect(result.code).toBe(EXIT.auth);
    expect(result.stderr).toBe(
      "seqera-api: 403 UserInfo: Forbidden: TOWER_ACCESS_TOKEN was refused (invalid, expired or revoked), the only cause of a 403 there; create a new token under Your tokens in the Seqera Platform UI.\n",
    );
  });

  test.each([
    [["launch", "rnaseq"], "launch"],
    [["wait", "4Bi5xBK6E2Nbhj"], "wait"],
    [["ListWorkflows"], "ListWorkflows"],
  ])(
    "%j with a workspace by name and a refused token: the command run, not UserInfo",
    async (args, command) => {
      const result = await seqera(args, { env: env({ TOWER_ACCESS_TOKEN: REFUSED_TOKEN }) });
      expect(result.code).toBe(EXIT.auth);
      expect(result.stderr).toBe(
        `seqera-api ${command}: 403 GET /user-info: Forbidden: TOWER_ACCESS_TOKEN was refused (invalid, expired or revoked), the only cause of a 403 there; create a new token under Your tokens in the Seqera Platform UI.\n`,
      );
    },
  );
});
