import { startEmulator, type Emulator } from "seqera-api-client/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { EXIT } from "../../src/cli/exit-codes.js";
import { sharedBuild, lines, runCli, type BuiltCli, type RunOptions, towerEnv } from "./cli.js";

let cli: BuiltCli;
let emulator: Emulator;
beforeAll(async () => {
  [cli, emulator] = await Promise.all([sharedBuild(), startEmulator()]);
});
afterAll(async () => {
  await emulator?.close();
});
beforeEach(() => {
  emulator.clearHandlers();
  emulator.faults.clear();
});

const env = () => towerEnv(emulator);
const seqera = (args: string[], options: RunOptions = {}) =>
  runCli(cli.main, args, { env: env(), ...options });

describe("bad input: one line on stderr, exit 2, nothing sent", () => {
  test.each([
    [
      ["ListWorkflow"],
      'Unknown operation "ListWorkflow". Did you mean ListWorkflows, ListWorkflowTasks?',
    ],
    [["GET", "/workflw"], "Unknown path GET /workflw. Did you mean GET /workflow?"],
    [
      ["GET", "/workflow/abc/lg"],
      "Unknown path GET /workflow/abc/lg. Did you mean GET /workflow/{workflowId}/log,",
    ],
    [
      ["PUT", "/workflow/abc"],
      "PUT /workflow/abc is not an operation; /workflow/{workflowId} takes GET, DELETE, PATCH.",
    ],
    [
      ["DescribeWorkflow"],
      "DescribeWorkflow (GET /workflow/{workflowId}) needs -p workflowId=<value>.",
    ],
    [
      ["DescribeWorkflow", "-p", "workflowID=1"],
      'DescribeWorkflow (GET /workflow/{workflowId}) has no path parameter "workflowID". Did you mean workflowId?',
    ],
    [
      ["ListWorkflows", "-q", "mx=5"],
      'ListWorkflows (GET /workflow) has no query parameter "mx". Did you mean max?',
    ],
    [["ListWorkflows", "-q", "max"], '-q "max": expected name=value.'],
    [["ListWorkflows", "-q", "max=1", "-q", "max=2"], "Query parameter max is given twice"],
    [
      ["CreateWorkflowLaunch", "-F", "launch.pipline=x"],
      "The request body has no field launch.pipline. Did you mean launch.pipeline?",
    ],
    [["CreateWorkflowLaunch", "-F", "launch..x=1"], '-F "launch..x=1": expected key=value'],
    [["CreateWorkflowLaunch", "-F", "launch"], '-F "launch": expected key=value'],
    [
      ["CreateWorkflowLaunch", "-F", "launch.pipeline[]=x"],
      "Body field launch.pipeline is not an array; drop the [].",
    ],
    [["CreateWorkflowLaunch"], "CreateWorkflowLaunch (POST /workflow/launch) needs a request body"],
    [
      ["CreateWorkflowLaunch", "--input", "/nonexistent.json"],
      "--input /nonexistent.json: cannot read the file (ENOENT).",
    ],
    [["ListWorkflows", "-F", "a=1"], "ListWorkflows (GET /workflow) takes no request body"],
    [["DescribeWorkflow", "-p", "workflowId=1", "--paginate"], "--paginate needs a list operation"],
    [["ListWorkflows", "--paginate", "-q", "max=500"], "-q max=500: a page size is 1 to 100."],
    [["ListWorkflows", "--paginate", "-q", "offset=5"], "--paginate sets offset itself"],
    [["ListWorkflows", "--timeout", "soon"], "--timeout soon: expected a duration such as 90s"],
    [["ListWorkflows", "--pagenate"], "Unknown option '--pagenate'. Did you mean --paginate?"],
    [["emulator", "-q", "a=b"], "--query does not apply to seqera-api emulator."],
    [[], "Name an operation, e.g. seqera-api ListWorkflows"],
    // Names that are properties of every object are not operations, parameters or fields.
    [["constructor"], 'Unknown operation "constructor".'],
    [
      ["ListWorkflows", "-q", "toString=1"],
      'ListWorkflows (GET /workflow) has no query parameter "toString".',
    ],
    [["CreateWorkflowLaunch", "-F", "constructor=1"], "The request body has no field constructor."],
    [["CreateWorkflowLaunch", "-F", "__proto__.x=1"], '-F "__proto__.x=1": expected key=value'],
  ])("%j", async (args, message) => {
    const before = emulator.requests.length;
    const result = await seqera(args);
    expect(result.stderr).toContain(`seqera-api: ${message}`);
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(result).toMatchObject({ code: EXIT.usage, stdout: "" });
    expect(emulator.requests.length).toBe(before);
  });

  test("no token is a usage error naming TOWER_ACCESS_TOKEN", async () => {
    const result = await seqera(["ListWorkflows"], { env: { TOWER_API_ENDPOINT: emulator.url } });
    expect(result.code).toBe(EXIT.usage);
    expect(result.stderr).toMatch(/^seqera-api: No Seqera access token: .*TOWER_ACCESS_TOKEN/);
  });

  test("a 400 from the service: exit 2, its message and Error ID on one line", async () => {
    const result = await seqera(["ListWorkflows", "-q", "max=500"]);
    expect(result.code).toBe(EXIT.usage);
    expect(result.stderr).toMatch(
      /^seqera-api: 400 ListWorkflows: Query parameter 'max' must be less than or equal to 100 \(Error ID: \w+\)\n$/,
    );
  });
});

describe("authentication", () => {
  test("a rejected token: exit 4, a message saying what a 403 means, never the token", async () => {
    const token = "not-a-valid-token-0123456789";
    const result = await seqera(["ListWorkflows", "--verbose"], {
      env: { TOWER_API_ENDPOINT: emulator.url, TOWER_ACCESS_TOKEN: token },
    });
    expect(result.code).toBe(EXIT.auth);
    const [attempt, error, ...rest] = result.stderr.trimEnd().split("\n");
    expect(attempt).toMatch(
      /^seqera-api: GET \/workflow \(ListWorkflows\) attempt 1: 403 in \d+ ms/,
    );
    expect(error).toBe(
      "seqera-api: 403 ListWorkflows: Forbidden (403) for GET /workflow, sent without a workspaceId (so in the token owner's personal workspace): the access token is invalid or expired, or lacks a permission this needs, or the resource is in another workspace (each of these answers 403); or this path is not available on this server.",
    );
    expect(rest).toEqual([]);
    expect(result.stderr + result.stdout).not.toContain(token);
  });

  test("a server echoing the token back: it is redacted from the error line", async () => {
    emulator.setHandler("ListWorkflows", () => ({
      status: 403,
      body: { message: `token ${emulator.token} has no access to this workspace` },
    }));
    const result = await seqera(["ListWorkflows"]);
    expect(result.code).toBe(EXIT.auth);
    expect(result.stderr).toContain("Server said: token [REDACTED] has no access");
    expect(result.stderr).not.toContain(emulator.token);
  });
});

describe("other failures", () => {
  test("a 409: exit 5 with the service's message", async () => {
    emulator.setHandler("ListWorkflows", () => ({
      status: 409,
      body: { message: "Busy - Error ID: abc123" },
    }));
    const result = await seqera(["ListWorkflows"]);
    expect(result).toMatchObject({ code: EXIT.failure, stdout: "" });
    expect(result.stderr).toBe("seqera-api: 409 ListWorkflows: Busy (Error ID: abc123)\n");
  });

  test("--timeout: exit 3 when the service is too slow", async () => {
    emulator.faults.configure({ delayMs: 5_000 });
    const result = await seqera(["ListWorkflows", "--timeout", "500ms"]);
    expect(result.code).toBe(EXIT.timeout);
    expect(result.stderr).toBe(
      "seqera-api: ListWorkflows did not finish within --timeout 500ms.\n",
    );
  });

  test("a 503 then success: retried, exit 0; --verbose shows both attempts", async () => {
    emulator.faults.queue("unavailable");
    const result = await seqera(["ListWorkflows", "--verbose"]);
    expect(result.code).toBe(EXIT.ok);
    const log = result.stderr.trimEnd().split("\n");
    expect(log[0]).toMatch(/attempt 1: 503 in \d+ ms.*; retrying in \d+ ms/);
    expect(log[1]).toMatch(/attempt 2: 200 in \d+ ms/);
    expect(log).toHaveLength(2);
  });
});

describe("rate limits", () => {
  test("a 429 storm: two processes paging on an emulator allowing 3 calls/s all finish, paced by Retry-After", async () => {
    const strict = await startEmulator({ rateLimit: { perSecond: 3 } });
    try {
      for (let i = 0; i < 6; i++) strict.state.runs.add();
      const options = { env: { TOWER_API_ENDPOINT: strict.url, TOWER_ACCESS_TOKEN: strict.token } };
      const args = ["ListWorkflows", "--paginate", "-q", "max=1", "--verbose"];
      const results = await Promise.all([
        runCli(cli.main, args, options),
        runCli(cli.main, args, options),
      ]);
      for (const result of results) {
        expect(result.code, result.stderr).toBe(EXIT.ok);
        expect(lines(result.stdout)).toHaveLength(6);
      }
      const statuses = strict.requests.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(12);
      expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
      // The storm did happen, and each 429 was waited out, not failed on.
      const rejected = statuses.filter((s) => s === 429).length;
      expect(rejected).toBeGreaterThan(0);
      const retries = results.flatMap((r) => r.stderr.match(/: 429 in .*; retrying in/g) ?? []);
      expect(retries).toHaveLength(rejected);
    } finally {
      await strict.close();
    }
  });
});
