import { readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Emulator } from "seqera-api-client/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { lines, runCli, type BuiltCli, type RunOptions, cliAndEmulator } from "./cli.js";

let cli: BuiltCli;
let emulator: Emulator;
beforeAll(async () => {
  ({ cli, emulator } = await cliAndEmulator({
    seed: {
      workspaces: [
        { org: "acme", name: "prod", id: 42 },
        { org: "acme", name: "empty", id: 43 },
      ],
      computeEnvs: [{ name: "aws", workspaceId: 42, status: "AVAILABLE", id: "ce1" }],
    },
  }));
});
afterAll(async () => {
  await emulator?.close();
});
beforeEach(() => {
  emulator.clearHandlers();
  emulator.faults.clear();
});

const env = (more: Record<string, string> = {}) => ({
  TOWER_API_ENDPOINT: emulator.url,
  TOWER_ACCESS_TOKEN: emulator.token,
  TOWER_WORKSPACE_ID: "42",
  ...more,
});
const seqera = (args: string[], options: RunOptions = {}) =>
  runCli(cli.main, args, { env: env(), ...options });
/** Requests the emulator received while `fn` ran. */
async function requestsDuring<T>(fn: () => Promise<T>) {
  const before = emulator.requests.length;
  const result = await fn();
  return { result, requests: emulator.requests.slice(before) };
}

describe("calls", () => {
  test("by operationId in any case, with query parameters; compact JSON in a pipe", async () => {
    const run = emulator.state.runs.add({ workspaceId: 7 });
    const { result, requests } = await requestsDuring(() =>
      seqera(["listworkflows", "-q", "max=5", "-w", "7"]),
    );
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout.trim().split("\n")).toHaveLength(1);
    expect(
      JSON.parse(result.stdout).workflows.map((w: { workflow: { id: string } }) => w.workflow.id),
    ).toEqual([run.id]);
    expect(requests).toMatchObject([
      { method: "GET", path: "/workflow", search: "max=5&workspaceId=7", status: 200 },
    ]);
  });

  test("by METHOD and a filled-in path, or a template with -p, and a query string in the path", async () => {
    const run = emulator.state.runs.add({ status: "RUNNING", workspaceId: 42 });
    for (const args of [
      ["GET", `/workflow/${run.id}`],
      ["get", `workflow/${run.id}/`],
      ["GET", "/workflow/{workflowId}", "-p", `workflowId=${run.id}`],
      ["DescribeWorkflow", "-p", `workflowId=${run.id}`],
    ]) {
      const { stdout, code, stderr } = await seqera(args);
      expect({ code, stderr }, args.join(" ")).toEqual({ code: 0, stderr: "" });
      expect(JSON.parse(stdout).workflow).toMatchObject({ id: run.id, status: "RUNNING" });
    }
    const { requests } = await requestsDuring(() => seqera(["GET", "/workflow?max=1&offset=0"]));
    expect(requests[0]).toMatchObject({
      path: "/workflow",
      search: "max=1&offset=0&workspaceId=42",
      status: 200,
    });
  });

  test("-F types values, -f keeps strings, a.b nests, a[] appends; the body reaches the service", async () => {
    const [a, b] = ["a", "b"].map(
      (name) => emulator.state.labels.add({ name, workspaceId: 42 }).id,
    );
    const { result, requests } = await requestsDuring(() =>
      seqera([
        "CreateWorkflowLaunch",
        "-F",
        "launch.pipeline=nf-core/rnaseq",
        "-F",
        "launch.computeEnvId=ce1",
        "-F",
        "launch.headJobCpus=4",
        "-F",
        "launch.resume=false",
        // The schema says string: a number-looking revision stays text.
        "-F",
        "launch.revision=1.10",
        "-F",
        `launch.labelIds[]=${a}`,
        "-F",
        `launch.labelIds[]=${b}`,
        "-f",
        "launch.runName=42",
      ]),
    );
    expect(result).toMatchObject({ code: 0, stderr: "" });
    const { workflowId } = JSON.parse(result.stdout);
    expect(emulator.state.runs.get(workflowId)?.pipeline).toBe("nf-core/rnaseq");
    expect(requests[0]!.body).toEqual({
      launch: {
        pipeline: "nf-core/rnaseq",
        computeEnvId: "ce1",
        headJobCpus: 4,
        resume: false,
        revision: "1.10",
        labelIds: [a, b],
        runName: "42",
      },
    });
  });

  test("--input reads the body from a file or stdin; fields go on top", async () => {
    const file = path.join(tmpdir(), `launch-${process.pid}.json`);
    await writeFile(
      file,
      JSON.stringify({ launch: { pipeline: "from-file", computeEnvId: "ce1" } }),
    );
    const fromFile = await requestsDuring(() =>
      seqera(["POST", "/workflow/launch", "--input", file, "-F", "launch.runName=mine"]),
    );
    expect(fromFile.result).toMatchObject({ code: 0, stderr: "" });
    expect(fromFile.requests[0]!.body).toEqual({
      launch: { pipeline: "from-file", computeEnvId: "ce1", runName: "mine" },
    });
    const stdin = JSON.stringify({ launch: { pipeline: "from-stdin", computeEnvId: "ce1" } });
    const fromStdin = await requestsDuring(() =>
      seqera(["CreateWorkflowLaunch", "--input", "-"], { env: env(), stdin }),
    );
    expect(fromStdin.result.code).toBe(0);
    expect(fromStdin.requests[0]!.body).toEqual(JSON.parse(stdin));
  });

  test("an operation answering no content prints nothing and exits 0", async () => {
    const run = emulator.state.runs.add({ status: "RUNNING", workspaceId: 42 });
    const result = await seqera(["POST", `/workflow/${run.id}/cancel`]);
    expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(emulator.state.runs.get(run.id)?.status).toBe("CANCELLED");
  });
});

describe("--paginate", () => {
  test("streams every item as one JSON line, fetching pages of -q max=N", async () => {
    const workspaceId = 31;
    const ids = Array.from({ length: 7 }, () => emulator.state.runs.add({ workspaceId }).id);
    const { result, requests } = await requestsDuring(() =>
      seqera(["ListWorkflows", "--paginate", "-q", "max=3", "--workspace", String(workspaceId)]),
    );
    expect(result).toMatchObject({ code: 0, stderr: "" });
    const items = lines(result.stdout) as { workflow: { id: string } }[];
    // Newest first, as the service lists them; each once.
    expect(items.map((i) => i.workflow.id)).toEqual(ids.reverse());
    expect(requests.map((r) => r.search)).toEqual([
      "max=3&offset=0&workspaceId=31",
      "max=3&offset=3&workspaceId=31",
      "max=3&offset=6&workspaceId=31",
    ]);
  });

  test("an empty list prints nothing", async () => {
    const result = await seqera(["ListWorkflows", "--paginate", "-w", "43"]);
    expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });
  });
});

describe("help and version", () => {
  test("--help of an operation: summary, parameters with types, body fields, pagination", async () => {
    const list = await seqera(["ListWorkflows", "--help"], { env: {} });
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^ListWorkflows: GET \/workflow\nList workflows\n/);
    expect(list.stdout).toMatch(/-q max=\s+integer\s+Pagination max results/);
    expect(list.stdout).toMatch(/-q workspaceId=\s+integer .*TOWER_WORKSPACE_ID/);
    expect(list.stdout).toContain('--paginate prints every item of "workflows"');

    const launch = await seqera(["POST", "/workflow/launch", "--help"], { env: {} });
    expect(launch.stdout).toContain("Request body (application/json, required)");
    expect(launch.stdout).toMatch(/^ {2}launch\.pipeline\s+string/m);
    expect(launch.stdout).toMatch(/^ {2}launch\.labelIds\s+integer\[\]/m);

    const describe = await seqera(["describeworkflow", "-h"], { env: {} });
    expect(describe.stdout).toMatch(
      /-p workflowId=\s+string\s+Workflow string identifier \(required\)/,
    );
  });

  test("--help lists usage, options, the environment and the exit codes", async () => {
    const { code, stdout } = await seqera(["--help"], { env: {} });
    expect(code).toBe(0);
    for (const text of [
      "--paginate",
      "--raw-field",
      "TOWER_ACCESS_TOKEN",
      "SEQERA_RATE_LIMIT_REDIS",
      "Exit codes:",
    ]) {
      expect(stdout).toContain(text);
    }
    expect((await seqera(["emulator", "--help"], { env: {} })).stdout).toContain(
      "TOWER_API_ENDPOINT=http://127.0.0.1:<port>",
    );
  });

  test("--version names the package and the schema release", async () => {
    const { SCHEMA_VERSION } = await import("seqera-api-client");
    const { version } = (await import("../../package.json", { with: { type: "json" } })).default;
    const result = await seqera(["--version"], { env: {} });
    expect(result).toEqual({
      code: 0,
      signal: null,
      stdout: `seqera-api ${version} (Seqera Platform API schema ${SCHEMA_VERSION})\n`,
      stderr: "",
    });
  });

  test("the executable's static imports stop short of the main entry (the client), which only commands that call import", async () => {
    // What every start loads, --version and usage errors included: the entry and the modules its
    // `import` statements (not its `import()` calls) reach.
    const reached = new Set<string>();
    const specifiers: string[] = [];
    const visit = async (file: string): Promise<void> => {
      if (reached.has(file)) return;
      reached.add(file);
      const source = await readFile(file, "utf8");
      for (const [, specifier] of source.matchAll(/^import\b[^;]*?"([^"]+)";/gm)) {
        specifiers.push(specifier!);
        if (specifier!.startsWith(".")) await visit(path.resolve(path.dirname(file), specifier!));
      }
    };
    await visit(cli.main);
    expect(reached.size).toBeGreaterThan(1);
    expect(specifiers).not.toContain("seqera-api-client");
  });
});
