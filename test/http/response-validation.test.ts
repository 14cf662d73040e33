import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, test } from "vitest";
import {
  loadResponseValidator,
  MAX_ISSUES,
  type ResponseValidator,
} from "../../src/http/validate-response.js";
import { RECORDED as RECORDED_DIR, ROOT } from "../helpers/schema.js";

const RECORDED = path.join(RECORDED_DIR, "tower-cli");
/** A describe-run answer recorded from the service (manifest: GET /workflow/{workflowId}). */
const recorded = async (file: string): Promise<any> =>
  JSON.parse(await readFile(path.join(RECORDED, file), "utf8"));

let validate: ResponseValidator;
let describeRun: any;
beforeAll(async () => {
  validate = await loadResponseValidator();
  describeRun = await recorded("get_workflow_workflowId_200_4ace08d8f1db.json");
});

const check = (body: unknown) => validate("GET", "/workflow/{workflowId}", 200, body);

test("a real answer has no issues", () => {
  expect(check(describeRun)).toEqual([]);
});

describe("a drifted answer names the property path, what was expected and the value", () => {
  test("a wrong type under a nullable property", () => {
    const body = structuredClone(describeRun);
    body.workflow.stats.computeTimeFmt = 5;
    expect(check(body)).toEqual([
      { path: "/workflow/stats/computeTimeFmt", message: "must be string or null", value: 5 },
    ]);
  });

  test("a required property left out", () => {
    const body = structuredClone(describeRun);
    delete body.progress.workflowProgress.succeeded;
    expect(check(body)).toEqual([
      {
        path: "/progress/workflowProgress/succeeded",
        message: "is required but absent",
        value: undefined,
      },
    ]);
  });

  test("an enum value the types do not know", () => {
    const body = structuredClone(describeRun);
    body.workflow.status = "PAUSED";
    const [issue] = check(body);
    expect(issue).toMatchObject({ path: "/workflow/status", value: "PAUSED" });
    expect(issue!.message).toMatch(/^must be one of "SUBMITTED", "RUNNING", /);
  });

  test("several at once, each once", () => {
    const body = structuredClone(describeRun);
    body.workflow.runName = 1;
    body.workflow.manifest = "none";
    expect(check(body).map((i) => i.path)).toEqual(["/workflow/manifest", "/workflow/runName"]);
  });
});

describe("values are shown safely", () => {
  test("long strings are cut, objects and arrays shown by their shape", () => {
    const body = structuredClone(describeRun);
    body.workflow.runName = "x".repeat(500);
    body.workflow.commitId = ["a", "b"];
    body.workflow.stats = { ...body.workflow.stats, computeTimeFmt: { secret: "s3cr3t" } };
    const values = Object.fromEntries(check(body).map((i) => [i.path, i.value]));
    // runName is a valid string: only the wrong ones are issues.
    expect(values).toEqual({
      "/workflow/commitId": "array(2)",
      "/workflow/stats/computeTimeFmt": "object {secret}",
    });
    body.workflow.stats = 7;
    body.workflow.manifest = "m".repeat(500);
    const cut = check(body).find((i) => i.path === "/workflow/manifest")!.value as string;
    expect(cut).toBe(`${"m".repeat(64)}…`);
  });

  test("a property whose name says it holds a secret is redacted", async () => {
    const user = await recorded("get_user_info_200_70fe8e8d31dd.json");
    expect(validate("GET", "/user-info", 200, user)).toEqual([]);
    user.user.options.githubToken = ["gho_secret"];
    expect(validate("GET", "/user-info", 200, user)).toEqual([
      { path: "/user/options/githubToken", message: "must be string or null", value: "[redacted]" },
    ]);
  });

  test(`at most ${MAX_ISSUES} issues per answer`, () => {
    const list = {
      workflows: Array.from({ length: 50 }, () => ({ workflow: { status: "PAUSED" } })),
    };
    expect(validate("GET", "/workflow", 200, list)).toHaveLength(MAX_ISSUES);
  });
});

test("an operation, status or body the schema does not describe as JSON has nothing to check", () => {
  expect(validate("GET", "/no/such/path", 200, { x: 1 })).toEqual([]);
  expect(validate("GET", "/workflow/{workflowId}", 299, "anything")).toEqual([]);
  expect(validate("GET", "/workflow/{workflowId}/download", 200, "a log line")).toEqual([]);
});

test("the same validator serves any case of the method", () => {
  const body = structuredClone(describeRun);
  body.workflow.status = "PAUSED";
  expect(validate("get", "/workflow/{workflowId}", 200, body)).toHaveLength(1);
});

test("Ajv is not loaded until a client with validateResponses makes a call", async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", path.join(ROOT, "test", "fixtures", "lazy-validator.ts")],
    { cwd: ROOT },
  );
  expect(JSON.parse(stdout)).toEqual({ afterOffCall: false, afterWarnCall: true });
});
