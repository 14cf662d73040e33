/** The action's entry against the emulator: see step.ts for how it is run. */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { startEmulator, type Emulator } from "seqera-api-client/testing";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { setTimeout as sleep } from "node:timers/promises";
import { INPUT_DEFAULTS, INPUT_NAMES } from "../../src/action/inputs.js";
import { EXIT } from "../../src/cli/exit-codes.js";
import { root, runCommand, startCli } from "../cli/cli.js";
import { startRedis } from "../limits/processes.js";
import {
  actionMain,
  collect,
  commands,
  runStep as run,
  stepEnv,
  stepsDir,
  type Step,
} from "./step.js";

let main: string;
let dir: string;
/** Runs advance one step per poll: waits end on their own. */
let moving: Emulator;
/** Runs stay where they are: for timeouts and cancels. */
let still: Emulator;

const failingStderr = "Killed\nstar: out of memory (30 GB requested)";
/** What a pipeline's output may hold: a code fence, HTML, a table row, a workflow command. */
const hostileStderr = "```\n<img src=x onerror=alert(1)>\n| a | b |\n::add-mask::mine";
const seed = {
  workspaces: [{ org: "acme", name: "genomics", id: 42 }],
  computeEnvs: [{ id: "ce1", name: "aws", workspaceId: 42, workDir: "s3://acme-work" }],
  pipelines: [
    { name: "rnaseq", workspaceId: 42, launch: { computeEnvId: "ce1", revision: "3.14.0" } },
    {
      name: "sarek",
      workspaceId: 42,
      launch: { computeEnvId: "ce1" },
      ending: {
        status: "FAILED" as const,
        task: "STAR_ALIGN",
        exitStatus: 137,
        stderr: failingStderr,
      },
    },
    {
      name: "hostile",
      workspaceId: 42,
      launch: { computeEnvId: "ce1" },
      ending: { status: "FAILED" as const, task: "MULTIQC", stderr: hostileStderr },
    },
  ],
  runs: [
    {
      id: "1nightly",
      workspaceId: 42,
      status: "FAILED" as const,
      launch: { pipeline: "https://github.com/nf-core/rnaseq", computeEnvId: "ce1" },
      tasks: [
        { process: "FASTQC", tag: "s1", status: "COMPLETED" as const },
        { process: "STAR_ALIGN", tag: "s1", status: "FAILED" as const, exitStatus: 137 },
      ],
      relaunchEnding: { status: "SUCCEEDED" as const },
    },
  ],
};

beforeAll(async () => {
  dir = await stepsDir();
  [main, moving, still] = await Promise.all([
    actionMain(dir),
    startEmulator({ seed, autoAdvance: true }),
    startEmulator({ seed }),
  ]);
});
afterAll(async () => {
  await Promise.all([moving?.close(), still?.close()]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

const runStep = (
  emulator: Emulator,
  inputs: Record<string, string>,
  options?: { env?: Record<string, string> },
): Promise<Step> => run(dir, emulator, inputs, options);

const fast = { poll_interval: "20ms" };
const launches = (emulator: Emulator) =>
  emulator.requests.filter((r) => r.operationId === "CreateWorkflowLaunch");
describe("a run that succeeds", () => {
  test("launched by name with the launch inputs, waited for: outputs, summary, token masked first", async () => {
    const before = moving.requests.length;
    const step = await runStep(moving, {
      ...fast,
      pipeline: "rnaseq",
      workspace_id: "acme/genomics",
      parameters: "outdir: s3://results\ngenome: GRCh38\n",
      labels: "nightly, team=bio",
      profiles: "test,docker",
      run_name: "ci-42",
      nextflow_version: "25.04.8",
      wait: "true",
    });
    expect(step.code).toBe(EXIT.ok);
    // The token is masked before anything else is printed, and printed nowhere else.
    expect(step.stdout.split("\n")[0]).toBe(`::add-mask::${moving.token}`);
    expect(step.stdout.split(moving.token).length).toBe(2);
    const { workflowId } = step.outputs;
    expect(step.outputs).toMatchObject({
      status: "SUCCEEDED",
      exitStatus: "0",
      exitCode: "0",
      workspaceId: "42",
      workflowUrl: `${moving.url}/orgs/acme/workspaces/genomics/watch/${workflowId}`,
    });
    expect(JSON.parse(step.outputs.json!)).toMatchObject({ workflowId, status: "SUCCEEDED" });
    expect(step.stdout).toContain(`Run ${workflowId}: SUCCEEDED`);
    expect(step.summary).toContain(`Seqera run ci-42 (${workflowId}): SUCCEEDED`);
    expect(step.summary).toContain(`| Run | [${workflowId}](${step.outputs.workflowUrl}) |`);
    expect(commands(step.stdout)).toEqual([]);

    const { body, search } = launches(moving).at(-1)!;
    expect(search).toBe("workspaceId=42");
    const { launch } = body as { launch: Record<string, unknown> };
    expect(launch).toMatchObject({
      computeEnvId: "ce1",
      revision: "3.14.0",
      runName: "ci-42",
      configProfiles: ["test", "docker"],
      nextflowVersion: "25.04.8",
    });
    expect(JSON.parse(launch.paramsText as string)).toEqual({
      outdir: "s3://results",
      genome: "GRCh38",
    });
    expect((launch.labelIds as number[]).length).toBe(2);
    // Every call went to the endpoint given, and one launch was made.
    const made = moving.requests.slice(before);
    expect(made.every((r) => r.status === 200)).toBe(true);
    expect(made.filter((r) => r.operationId === "CreateWorkflowLaunch")).toHaveLength(1);
  });

  test("without wait: the run's id and URL at once, status SUBMITTED; the pipeline defaults to the repository", async () => {
    // The bundle alone (no node_modules, no schema beside it), as a runner with production
    // settings and scripts off starts it.
    expect((await readdir(path.dirname(main))).sort()).toEqual([
      "THIRD_PARTY_LICENSES.txt",
      "index.mjs",
    ]);
    const step = await runStep(
      moving,
      { workspace_id: "42" },
      { env: { NODE_ENV: "production", npm_config_ignore_scripts: "true" } },
    );
    expect(step.code).toBe(EXIT.ok);
    expect(step.outputs).toMatchObject({
      status: "SUBMITTED",
      exitCode: "0",
      workspaceRef: "[acme / genomics]",
    });
    expect(step.outputs.workflowUrl).toBe(
      `${moving.url}/orgs/acme/workspaces/genomics/watch/${step.outputs.workflowId}`,
    );
    const { launch } = launches(moving).at(-1)!.body as { launch: Record<string, unknown> };
    expect(launch.pipeline).toBe("https://github.com/acme/pipeline");
    expect(moving.requests.filter((r) => r.operationId === "DescribeWorkflow")).not.toContainEqual(
      expect.objectContaining({ path: `/workflow/${step.outputs.workflowId}` }),
    );
  });

  test("relaunch resumes an earlier run (its launch id, resume: true) and waits for it", async () => {
    const step = await runStep(moving, {
      ...fast,
      relaunch: "1nightly",
      workspace_id: "acme/genomics",
      wait: "true",
    });
    expect(step.code).toBe(EXIT.ok);
    expect(step.outputs.status).toBe("SUCCEEDED");
    const { launch } = launches(moving).at(-1)!.body as { launch: Record<string, unknown> };
    expect(launch).toMatchObject({ resume: true, id: moving.state.runs.get("1nightly")!.launchId });
  });
});

describe("a run that fails", () => {
  test("its log followed, the step fails: failed tasks with exit code and stderr in the summary and annotations", async () => {
    const step = await runStep(moving, {
      ...fast,
      pipeline: "sarek",
      workspace_id: "acme/genomics",
      follow_log: "true",
    });
    expect(step.code).toBe(EXIT.runFailed);
    expect(step.outputs).toMatchObject({ status: "FAILED", exitCode: "1", exitStatus: "1" });
    // The log is printed with the runner's commands off: a line of it cannot set an output.
    const log = step.stdout.split("\n");
    const off = log.findIndex((line) => line.startsWith("::stop-commands::"));
    const token = log[off]!.slice("::stop-commands::".length);
    const on = log.indexOf(`::${token}::`);
    expect(off).toBeGreaterThan(0);
    expect(on).toBeGreaterThan(off);
    expect(log.slice(off, on).join("\n")).toContain("Error executing process > 'STAR_ALIGN'");
    expect(commands(step.stdout).filter((line) => line.startsWith("::error"))).toEqual([
      expect.stringMatching(/^::error title=Seqera run::Run \w+ ended FAILED: .*STAR_ALIGN/),
      "::error title=Task STAR_ALIGN failed (exit 137)::Killed%0Astar: out of memory (30 GB requested)",
    ]);
    expect(step.summary).toContain("#### Failed tasks (1)");
    expect(step.summary).toContain("| STAR_ALIGN | 137 |");
    expect(step.summary).toContain("```text\nKilled\nstar: out of memory (30 GB requested)\n```");
  });

  test("fail_on_run_failure: false: the step succeeds, exitCode says the run failed", async () => {
    const step = await runStep(moving, {
      ...fast,
      pipeline: "sarek",
      workspace_id: "acme/genomics",
      wait: "true",
      fail_on_run_failure: "false",
    });
    expect(step.code).toBe(EXIT.ok);
    expect(step.outputs).toMatchObject({ status: "FAILED", exitCode: "1" });
    expect(commands(step.stdout).filter((line) => line.startsWith("::error"))).toEqual([]);
    expect(commands(step.stdout)).toContainEqual(
      "::warning title=Task STAR_ALIGN failed (exit 137)::Killed%0Astar: out of memory (30 GB requested)",
    );
  });
});

test("text from the run is shown as text: never Markdown, HTML or a workflow command", async () => {
  const step = await runStep(moving, {
    ...fast,
    pipeline: "hostile",
    workspace_id: "acme/genomics",
    run_name: "<b>x</b> *y*",
    wait: "true",
  });
  expect(step.code).toBe(EXIT.runFailed);
  expect(step.summary).toContain("Seqera run &#60;b&#62;x&#60;/b&#62; &#42;y&#42; (");
  // The fence is longer than any run of backticks the text holds.
  expect(step.summary).toContain("````text\n" + hostileStderr + "\n````");
  // One annotation line: the stderr's lines are its message, encoded, not commands of their own.
  const log = step.stdout.split("\n");
  expect(log.filter((line) => line.startsWith("::add-mask::"))).toEqual([
    `::add-mask::${moving.token}`,
  ]);
  expect(log).toContainEqual(
    "::error title=Task MULTIQC failed (exit 1)::```%0A<img src=x onerror=alert(1)>%0A| a | b |%0A::add-mask::mine",
  );
  expect(Object.keys(step.outputs)).toEqual([
    "workflowId",
    "workflowUrl",
    "workspaceId",
    "workspaceRef",
    "status",
    "exitStatus",
    "exitCode",
    "json",
  ]);
});

describe("a step that stops before the run ends", () => {
  // The timeout bounds the whole step, the launch's look-ups too: 5 s leaves them time on a
  // loaded machine (1 s did not, at a load average of 20), and the run never moves here.
  test("timeout: exit 3, the run goes on unless cancel_run, which cancels it", async () => {
    const kept = await runStep(still, {
      ...fast,
      pipeline: "rnaseq",
      workspace_id: "acme/genomics",
      wait: "true",
      timeout: "5s",
    });
    expect(kept.code).toBe(EXIT.timeout);
    expect(kept.outputs).toMatchObject({ exitCode: "3", status: "SUBMITTED" });
    expect(still.state.runs.get(kept.outputs.workflowId!)!.status).toBe("SUBMITTED");
    expect(commands(kept.stdout).at(-1)).toMatch(
      /^::error title=Seqera run::Run \w+: .*SUBMITTED.* The run goes on \(set cancel_run: true/,
    );

    const cancelled = await runStep(still, {
      ...fast,
      pipeline: "rnaseq",
      workspace_id: "acme/genomics",
      wait: "true",
      timeout: "5s",
      cancel_run: "true",
    });
    expect(cancelled.code).toBe(EXIT.timeout);
    const id = cancelled.outputs.workflowId!;
    expect(still.state.runs.get(id)!.status).toBe("CANCELLED");
    expect(still.requests.filter((r) => r.operationId === "CancelWorkflow")).toContainEqual(
      expect.objectContaining({ path: `/workflow/${id}/cancel`, status: 204 }),
    );
    expect(cancelled.outputs.status).toBe("CANCELLED");
    expect(cancelled.summary).toContain("The run was cancelled (cancel_run).");
  });

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    test(`the job cancelled (${signal} to the step) with cancel_run: the run is cancelled, exit ${signal === "SIGINT" ? 130 : 143}`, async () => {
      const { env, files } = await stepEnv(dir, still, {
        ...fast,
        pipeline: "rnaseq",
        workspace_id: "acme/genomics",
        wait: "true",
        cancel_run: "true",
      });
      const child = startCli(main, [], { env });
      child.stdout!.setEncoding("utf8");
      let stdout = "";
      // The runner signals a step whatever it is doing: here, once the run is launched.
      while (!/Run \w+: SUBMITTED/.test(stdout)) {
        const [chunk] = (await once(child.stdout!, "data")) as [string];
        stdout += chunk;
      }
      child.stdout!.on("data", (chunk: string) => (stdout += chunk));
      child.kill(signal);
      const [code] = (await once(child, "close")) as [number];
      expect(code).toBe(signal === "SIGINT" ? EXIT.sigint : EXIT.sigterm);
      const { outputs, summary } = await collect(files);
      expect(still.state.runs.get(outputs.workflowId!)!.status).toBe("CANCELLED");
      expect(outputs).toMatchObject({ status: "CANCELLED", exitCode: String(code) });
      expect(summary).toContain(
        `the step was stopped by ${signal} (the job was cancelled). The run was cancelled (cancel_run).`,
      );
      expect(stdout).toContain(`Cancelled run ${outputs.workflowId}`);
    });
  }
});

describe("bad inputs: one annotation naming the input, exit 2, nothing sent", () => {
  const cases: [string, Record<string, string>, string][] = [
    [
      "a boolean",
      { pipeline: "rnaseq", wait: "yes" },
      'Input wait is "yes": expected true or false, or a status: SUBMITTED, RUNNING, SUCCEEDED.',
    ],
    ["a duration", { pipeline: "rnaseq", timeout: "6 hours" }, "Input timeout 6 hours: expected"],
    [
      "params given twice",
      { pipeline: "rnaseq", parameters: "a: 1", params_file: "p.yaml" },
      "parameters and params_file both given",
    ],
    [
      "params that are not YAML",
      { pipeline: "rnaseq", parameters: "a: [1" },
      "Input parameters is neither JSON nor YAML",
    ],
    [
      "a params file missing",
      { pipeline: "rnaseq", params_file: "missing.yaml" },
      "Input params_file missing.yaml: cannot read the file (ENOENT)",
    ],
    [
      "a work dir for a resumed run",
      { relaunch: "1nightly", workdir: "s3://other" },
      "the workdir input needs the resume input set to false: a resumed run keeps its work directory",
    ],
    [
      "an endpoint in plain http",
      { pipeline: "rnaseq", api_endpoint: "http://seqera.example.com/api" },
      "Refusing plain http:// to seqera.example.com (the api_endpoint input)",
    ],
    [
      "an endpoint that is no URL",
      { pipeline: "rnaseq", api_endpoint: "seqera.example.com" },
      'Input api_endpoint: Base URL "seqera.example.com" is not an absolute URL',
    ],
    [
      "an endpoint neither https nor http",
      { pipeline: "rnaseq", api_endpoint: "ftp://seqera.example.com" },
      "Input api_endpoint: Base URL must use https (got ftp:).",
    ],
    [
      "a token given with its Authorization scheme",
      { pipeline: "rnaseq", access_token: "Bearer abc123" },
      "Input access_token: The Seqera access token contains whitespace",
    ],
    [
      "a workspace that is neither an id nor organization/workspace",
      { pipeline: "rnaseq", workspace_id: "acme" },
      'Input workspace_id must be a positive integer or "organization/workspace", got "acme".',
    ],
    [
      "workspace id 0",
      { pipeline: "rnaseq", workspace_id: "0" },
      'Input workspace_id must be a positive integer or "organization/workspace", got "0".',
    ],
    [
      "wait for a status the run may never reach",
      { pipeline: "rnaseq", wait: "FAILED" },
      'Input wait is "FAILED": expected true or false, or a status',
    ],
  ];
  for (const [what, inputs, message] of cases) {
    test(what, async () => {
      const before = moving.requests.length;
      const step = await runStep(moving, inputs);
      expect(step.code).toBe(EXIT.usage);
      const lines = commands(step.stdout);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain("::error title=Seqera run%3A bad input::");
      expect(lines[0]).toContain(message);
      expect(lines[0]).toMatch(/Nothing was launched\.$/);
      expect(step.outputs).toEqual({ exitCode: "2" });
      expect(step.summary).toContain("Seqera run: nothing launched");
      expect(step.summary).toContain(message.slice(0, 20));
      expect(step.stdout + step.summary).not.toMatch(/\n\s+at /);
      expect(moving.requests.length).toBe(before);
    });
  }

  test("no token: the input and the variable named", async () => {
    const { env, files } = await stepEnv(dir, moving, { pipeline: "rnaseq" });
    delete env.TOWER_ACCESS_TOKEN;
    const before = moving.requests.length;
    const result = await runCommand(process.execPath, [main], { env });
    expect(result.code).toBe(EXIT.usage);
    expect(result.stdout).toContain("No Seqera access token: set the input access_token");
    expect((await collect(files)).outputs).toEqual({ exitCode: "2" });
    expect(moving.requests.length).toBe(before);
  });
});

test("action.yml: a JavaScript action running the bundle, every input with the entry's default, every output", async () => {
  const action = parse(await readFile(path.join(root, "action.yml"), "utf8"));
  expect(action.runs).toEqual({ using: "node24", main: "dist/action/index.mjs" });
  expect(Object.keys(action.inputs)).toEqual([...INPUT_NAMES]);
  const defaults = Object.entries(action.inputs).flatMap(([name, input]) => {
    const value = (input as { default?: string }).default;
    return value === undefined ? [] : [[name, value]];
  });
  expect(Object.fromEntries(defaults)).toEqual(INPUT_DEFAULTS);
  expect(Object.keys(action.outputs)).toEqual([
    "workflowId",
    "workflowUrl",
    "workspaceId",
    "workspaceRef",
    "status",
    "exitStatus",
    "exitCode",
    "json",
  ]);
});

/** A step left running, its log read as it comes: for signals and runs moved mid-step. */
async function startStep(emulator: Emulator, inputs: Record<string, string>) {
  const { env, files } = await stepEnv(dir, emulator, inputs);
  const child = startCli(main, [], { env });
  let stdout = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  const closed = once(child, "close") as Promise<[number | null]>;
  return {
    child,
    async waitFor(pattern: RegExp): Promise<RegExpExecArray> {
      for (;;) {
        const found = pattern.exec(stdout);
        if (found) return found;
        await Promise.race([once(child.stdout!, "data"), closed]);
        if (child.exitCode !== null) throw new Error(`The step ended first:\n${stdout}`);
      }
    },
    async end() {
      const [code] = await closed;
      return { code, stdout, ...(await collect(files)) };
    },
  };
}

/** A handler that lets the test know the request arrived, then answers as given (or never). */
function arrival() {
  let arrived!: () => void;
  const promise = new Promise<void>((resolve) => (arrived = resolve));
  return { promise, arrived };
}

const never = () => new Promise<undefined>(() => {});

describe("moving from seqeralabs/action-tower-launch", () => {
  test("wait: SUCCEEDED waits for the end as wait: true; verbose logs each call, never the token", async () => {
    const step = await runStep(moving, {
      ...fast,
      pipeline: "rnaseq",
      workspace_id: "acme/genomics",
      wait: "SUCCEEDED",
      verbose: "true",
    });
    expect(step.code).toBe(EXIT.ok);
    expect(step.outputs).toMatchObject({ status: "SUCCEEDED", workspaceRef: "[acme / genomics]" });
    expect(step.stderr).toMatch(
      /seqera-api: POST \/workflow\/launch \(CreateWorkflowLaunch\) attempt 1: 200 in \d+ ms/,
    );
    expect(step.stderr).not.toContain(moving.token);
  });

  test("wait: RUNNING ends the step once the run runs", async () => {
    const step = await runStep(moving, {
      ...fast,
      pipeline: "rnaseq",
      workspace_id: "acme/genomics",
      wait: "RUNNING",
    });
    expect(step.code).toBe(EXIT.ok);
    expect(step.outputs.status).toBe("RUNNING");
    expect(moving.state.runs.get(step.outputs.workflowId!)!.status).toBe("RUNNING");
  });
});

describe("the run named whatever stops the step", () => {
  test("the job cancelled while the launch request is on its way: workflowId and workflowUrl set", async () => {
    const launch = arrival();
    still.setHandler("CreateWorkflowLaunch", async () => {
      launch.arrived();
      await sleep(1_000);
      return undefined;
    });
    try {
      const step = await startStep(still, { pipeline: "rnaseq", workspace_id: "42" });
      await launch.promise;
      step.child.kill("SIGINT");
      const { code, outputs } = await step.end();
      expect(code).toBe(EXIT.sigint);
      const id = outputs.workflowId!;
      expect(still.state.runs.get(id)).toBeDefined();
      expect(outputs).toMatchObject({
        workflowUrl: `${still.url}/orgs/acme/workspaces/genomics/watch/${id}`,
        workspaceId: "42",
        exitCode: "130",
        status: "SUBMITTED",
      });
    } finally {
      still.clearHandlers();
    }
  });

  test("timeout passing during the launch request: the launch is finished, then cancelled (cancel_run) and named", async () => {
    still.setHandler("CreateWorkflowLaunch", async () => {
      await sleep(4_500);
      return undefined;
    });
    try {
      const step = await runStep(still, {
        pipeline: "rnaseq",
        workspace_id: "acme/genomics",
        timeout: "3s",
        cancel_run: "true",
      });
      expect(step.code).toBe(EXIT.timeout);
      const id = step.outputs.workflowId!;
      expect(still.state.runs.get(id)!.status).toBe("CANCELLED");
      expect(step.outputs.status).toBe("CANCELLED");
      expect(commands(step.stdout).at(-1)).toMatch(
        new RegExp(
          `^::error title=Seqera run::Run ${id}: .* The run was cancelled \\(cancel_run\\)\\.$`,
        ),
      );
    } finally {
      still.clearHandlers();
    }
  });
});

describe("a failed run whose tasks' standard error cannot be read", () => {
  const failing = { ...fast, pipeline: "sarek", workspace_id: "acme/genomics", wait: "true" };

  test("within timeout: the step ends at its deadline, the failed task listed without stderr", async () => {
    moving.setHandler("DownloadWorkflowTaskLog", never);
    try {
      const step = await runStep(moving, { ...failing, timeout: "4s" });
      expect(step.code).toBe(EXIT.runFailed);
      expect(step.outputs).toMatchObject({ status: "FAILED", exitCode: "1" });
      expect(step.summary).toContain("| STAR_ALIGN | 137 |");
      expect(step.summary).toContain("The failed tasks' standard error was not read (");
    } finally {
      moving.clearHandlers();
    }
  });

  test("refused: the run's failure reported all the same, the summary saying why", async () => {
    moving.setHandler("DownloadWorkflowTaskLog", () => ({ status: 403, body: {} }));
    try {
      const step = await runStep(moving, failing);
      expect(step.code).toBe(EXIT.runFailed);
      expect(step.summary).toContain("| STAR_ALIGN | 137 |");
      expect(step.summary).toMatch(
        /The failed tasks' standard error was not read \(reading it failed: .*403/,
      );
    } finally {
      moving.clearHandlers();
    }
  });

  test("SIGINT meanwhile: exit 130 with the summary and outputs", async () => {
    const download = arrival();
    moving.setHandler("DownloadWorkflowTaskLog", () => {
      download.arrived();
      return never();
    });
    try {
      const step = await startStep(moving, failing);
      await download.promise;
      step.child.kill("SIGINT");
      const { code, outputs, summary } = await step.end();
      expect(code).toBe(EXIT.sigint);
      expect(outputs).toMatchObject({ status: "FAILED", exitCode: "130" });
      expect(summary).toContain("| STAR_ALIGN | 137 |");
      expect(summary).toContain("(Interrupted by SIGINT)");
    } finally {
      moving.clearHandlers();
    }
  });
});

describe("what the job is told", () => {
  test("a timeout while the run is RUNNING: the summary and the status output say RUNNING", async () => {
    const step = await startStep(still, {
      ...fast,
      pipeline: "rnaseq",
      workspace_id: "acme/genomics",
      wait: "true",
      timeout: "4s",
    });
    const [, id] = await step.waitFor(/Launched run (\w+)/);
    still.state.runs.setStatus(id!, "RUNNING");
    const { code, outputs, summary } = await step.end();
    expect(code).toBe(EXIT.timeout);
    expect(outputs.status).toBe("RUNNING");
    expect(summary).toContain(`(${id}): RUNNING`);
    expect(summary).toContain("| Status | RUNNING |");
  });

  for (const [what, workspace] of [
    ["an unknown workspace name", "acme/genomic"],
    ["a workspace id the token's user does not have (a 403, not the token refused)", "999"],
  ] as const) {
    test(`${what}: exit 2, the workspaces that exist listed, in the annotation and the summary`, async () => {
      const step = await runStep(moving, { pipeline: "rnaseq", workspace_id: workspace });
      expect(step.code).toBe(EXIT.usage);
      const [line, ...others] = commands(step.stdout);
      expect(others).toEqual([]);
      expect(line).toContain(
        `Input workspace_id ${workspace}: no such workspace among the token owner's: acme/genomics (42).`,
      );
      expect(step.outputs).toEqual({ exitCode: "2" });
      expect(step.summary).toContain("Seqera run: nothing launched");
      expect(step.summary).toContain("acme/genomics (42)");
    });
  }
});

test("behind a proxy (HTTP_PROXY): every call goes through it, with the bundle's own undici", async () => {
  // A CONNECT proxy that takes seqera.test (a host only it can reach) to the emulator.
  const targets: string[] = [];
  const sockets = new Set<Socket>();
  const proxy: Server = createServer((_req, res) => res.writeHead(405).end());
  proxy.on("connect", (req, client: Socket) => {
    targets.push(req.url ?? "");
    const upstream = connect(Number(new URL(moving.url).port), "127.0.0.1", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      client.pipe(upstream).pipe(client);
    });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => {});
    }
  });
  proxy.listen(0, "127.0.0.1");
  await once(proxy, "listening");
  const { port } = proxy.address() as AddressInfo;
  const endpoint = moving.url.replace("127.0.0.1", "seqera.test");
  try {
    const step = await runStep(
      moving,
      { pipeline: "rnaseq", workspace_id: "acme/genomics", api_endpoint: endpoint },
      { env: { HTTP_PROXY: `http://127.0.0.1:${port}`, SEQERA_ALLOW_INSECURE_HTTP: "1" } },
    );
    expect(step.code).toBe(EXIT.ok);
    expect(step.outputs.workflowUrl).toMatch(/^http:\/\/seqera\.test:\d+\/orgs\/acme\//);
    expect(targets.length).toBeGreaterThan(0);
    expect(new Set(targets)).toEqual(new Set([new URL(endpoint).host]));
  } finally {
    for (const socket of sockets) socket.destroy();
    proxy.close();
  }
});

test("SEQERA_RATE_LIMIT_REDIS: the token's budget kept in Redis, with the bundle's own ioredis", async () => {
  // Needs redis-server: fails without it, saying so (.ci/run installs it).
  const redis = await startRedis();
  try {
    const step = await runStep(
      moving,
      { pipeline: "rnaseq", workspace_id: "acme/genomics" },
      { env: { SEQERA_RATE_LIMIT_REDIS: redis.url } },
    );
    expect(step.code).toBe(EXIT.ok);
    const { Redis } = await import("ioredis");
    const client = new Redis(redis.url);
    try {
      expect((await client.keys("*")).length).toBeGreaterThan(0);
    } finally {
      client.disconnect();
    }
  } finally {
    await redis.stop();
  }
});
