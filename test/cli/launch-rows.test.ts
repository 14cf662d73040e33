import { once } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { type Emulator } from "seqera-api-client/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { EXIT } from "../../src/cli/exit-codes.js";
import {
  runCli,
  startCli,
  lines,
  tempFile,
  type BuiltCli,
  type RunOptions,
  cliAndEmulator,
  towerEnv,
} from "./cli.js";

let cli: BuiltCli;
let emulator: Emulator;
const file = (name: string, content: string) => tempFile(`rows-${name}`, content);

beforeAll(async () => {
  ({ cli, emulator } = await cliAndEmulator({
    seed: {
      workspaces: [{ org: "acme", name: "prod", id: 42 }],
      computeEnvs: [{ name: "aws-ce", workspaceId: 42, status: "AVAILABLE", id: "ce1" }],
      pipelines: ["rnaseq", "sarek"].map((name) => ({
        name,
        workspaceId: 42,
        launch: { computeEnvId: "ce1", workDir: "s3://b/work", paramsText: '{"input":"s3://x"}' },
      })),
    },
  }));
});
afterAll(async () => {
  await emulator?.close();
});
beforeEach(() => {
  emulator.clearHandlers();
  emulator.requests.length = 0;
});

const env = () => towerEnv(emulator, "acme/prod");
const seqera = (args: string[], options: RunOptions = {}) =>
  runCli(cli.main, args, { env: env(), ...options });
/**
 * The launches the emulator accepted: a loaded machine may bunch the calls into a 429, which
 * the client retries (the service did nothing; the emulator logs it without its body).
 */
const launches = () =>
  emulator.requests
    .filter((r) => r.operationId === "CreateWorkflowLaunch" && r.status === 200)
    .map((r) => (r.body as { launch: Record<string, unknown> }).launch);
const byRow = (stdout: string) =>
  (lines(stdout) as Record<string, unknown>[]).sort((a, b) => Number(a.row) - Number(b.row));

describe("launch --rows", () => {
  test("CSV: one launch per row, each column as its flag, quoted commas and quotes kept", async () => {
    const params = await file("p.yaml", "outdir: s3://out\n");
    const rows = await file(
      "ok.csv",
      [
        "key,pipeline,run-name,labels,revision,params-file",
        `s1,rnaseq,"one, ""quoted""","a,b=c",3.14,${params}`,
        "s2,sarek,two,,,",
        "",
      ].join("\r\n"),
    );
    const result = await seqera(["launch", "--rows", rows, "--profile", "test"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(EXIT.ok);
    const printed = byRow(result.stdout);
    expect(printed).toEqual([
      {
        row: 1,
        key: "s1",
        pipeline: "rnaseq",
        workflowId: expect.any(String),
        createdLabels: ["a", "b=c"],
      },
      { row: 2, key: "s2", pipeline: "sarek", workflowId: expect.any(String), createdLabels: [] },
    ]);
    const sent = launches().sort((a, b) => String(a.runName).localeCompare(String(b.runName)));
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatchObject({
      runName: 'one, "quoted"',
      revision: "3.14",
      configProfiles: ["test"],
    });
    expect(JSON.parse(sent[0]!.paramsText as string)).toEqual({
      input: "s3://x",
      outdir: "s3://out",
    });
    expect(sent[0]!.labelIds).toHaveLength(2);
    // The empty cells keep the saved settings; the command line's --profile applies to every row.
    expect(sent[1]).toMatchObject({ runName: "two", configProfiles: ["test"] });
    expect(sent[1]!.revision).toBeUndefined();
  });

  test("JSON lines from standard input, the pipeline from the argument, switches and lists, unreadable lines told", async () => {
    const stdin = [
      '{"run-name":"j1","stub-run":true,"labels":["x","y"]}',
      "",
      '{"run-name":"j2","stub-run":false,"pipeline":"sarek","key":7}',
      '{"run-name": "j3",',
      '["not", "an object"]',
    ].join("\n");
    const result = await seqera(["launch", "rnaseq", "--rows", "-"], { stdin });
    expect(result.code).toBe(EXIT.usage);
    expect(byRow(result.stdout).map((r) => [r.row, r.key, r.pipeline, r.error])).toEqual([
      [1, undefined, "rnaseq", undefined],
      [2, "7", "sarek", undefined],
      [3, undefined, "rnaseq", "is not JSON."],
      [4, undefined, "rnaseq", "is not a JSON object of settings by flag name."],
    ]);
    // The line is not quoted: it may name private paths.
    expect(result.stderr).not.toContain("j3");
    const sent = launches();
    expect(sent.find((l) => l.runName === "j1")).toMatchObject({ stubRun: true });
    expect(sent.find((l) => l.runName === "j2")!.stubRun).toBeFalsy();
  });

  test("a bad row prints its error line, the others launch, exit code of the failure", async () => {
    const rows = await file(
      "bad.csv",
      "pipeline,run-name,syntax-parser\nrnaseq,ok1,\nrnaseqq,typo,\nrnaseq,bad-choice,v3\nrnaseq,short\nsarek,ok2,v2\n",
    );
    const result = await seqera(["launch", "--rows", rows]);
    expect(result.code).toBe(EXIT.usage);
    const printed = byRow(result.stdout);
    expect(printed.map((r) => [r.row, r.workflowId === undefined ? r.exitCode : "ok"])).toEqual([
      [1, "ok"],
      [2, EXIT.usage],
      [3, EXIT.usage],
      [4, EXIT.usage],
      [5, "ok"],
    ]);
    expect(printed[1]!.error).toContain('No pipeline named "rnaseqq"');
    expect(printed[2]!.error).toBe("--syntax-parser v3: expected v1 or v2.");
    expect(printed[3]!.error).toBe("has 2 fields, the header 3.");
    const errors = result.stderr.trim().split("\n").sort();
    expect(errors).toHaveLength(3);
    expect(errors[2]).toBe("seqera-api launch --rows: row 4: has 2 fields, the header 3.");
    expect(
      launches()
        .map((l) => l.runName)
        .sort(),
    ).toEqual(["ok1", "ok2"]);
  });

  const none = "has no rows: nothing launched.\n";
  test.each([
    ["an empty file", "", EXIT.ok, none],
    ["a header alone", "pipeline,run-name\n", EXIT.ok, none],
    [
      "a misspelt column",
      "pipeline,run-nam\nrnaseq,x\n",
      EXIT.usage,
      'row 1 has no launch setting "run-nam". Did you mean run-name',
    ],
    [
      "a command's option as a column",
      "pipeline,workspace\nrnaseq,1\n",
      EXIT.usage,
      "--workspace is the same for every row",
    ],
    [
      "an open quote",
      'pipeline,name\nrnaseq,"open\n',
      EXIT.usage,
      "the quoted field of line 2 is not closed.",
    ],
    [
      "a column twice",
      "pipeline,pipeline\nrnaseq,x\n",
      EXIT.usage,
      'column "pipeline" is given twice.',
    ],
  ])("%s: exit %i, nothing sent, said on stderr", async (_, text, code, message) => {
    const rows = await file("wrong.csv", text);
    const result = await seqera(["launch", "--rows", rows]);
    expect(result).toMatchObject({ code, stdout: "" });
    expect(result.stderr).toMatch(new RegExp(`^seqera-api: --rows ${rows}`));
    expect(result.stderr).toContain(message);
    expect(emulator.requests).toEqual([]);
  });

  test("--help: the output's fields, createdLabels among them, and --rows", async () => {
    const result = await seqera(["launch", "--help"]);
    expect(result.code).toBe(EXIT.ok);
    expect(result.stdout).toContain('{"workflowId", "createdLabels", "run"}');
    expect(result.stdout).toMatch(/\n  +--rows file +Launch once per row/);
  });

  test("--rows - and a params file from standard input: refused, on the command line or in a row", async () => {
    const flag = await seqera(["launch", "--rows", "-", "--params-file", "-"], {
      stdin: "pipeline\nrnaseq\n",
    });
    expect(flag).toMatchObject({ code: EXIT.usage, stdout: "" });
    expect(flag.stderr).toBe(
      "seqera-api: Standard input holds the rows (--rows -): give --params-file a file.\n",
    );
    const row = await seqera(["launch", "--rows", "-"], {
      stdin: "pipeline,params-file\nrnaseq,-\n",
    });
    expect(row.code).toBe(EXIT.usage);
    expect(row.stderr).toBe(
      "seqera-api launch --rows: row 1: Standard input holds the rows (--rows -): give --params-file a file.\n",
    );
    expect(launches()).toEqual([]);
  });

  test("--wait is refused with --rows", async () => {
    const result = await seqera(["launch", "--rows", "-", "--wait"], {
      stdin: "pipeline\nrnaseq\n",
    });
    expect(result).toMatchObject({ code: EXIT.usage, stdout: "" });
    expect(emulator.requests).toEqual([]);
  });

  test("--timeout: exit 3, every launch answered printed, the rows left named", async () => {
    emulator.setHandler("CreateWorkflowLaunch", async (_, answer) => {
      await sleep(300);
      return answer();
    });
    const stdin = ["pipeline", ...Array.from({ length: 40 }, () => "rnaseq")].join("\n");
    const result = await seqera(["launch", "--rows", "-", "--timeout", "1s"], { stdin });
    expect(result.code).toBe(EXIT.timeout);
    const printed = lines(result.stdout) as { workflowId?: string }[];
    expect(printed.every((line) => line.workflowId !== undefined)).toBe(true);
    expect(printed.length).toBeLessThan(40);
    expect(result.stderr).toMatch(
      new RegExp(
        `^seqera-api: launch --rows - did not finish within --timeout 1s: launched ${printed.length} of 40 rows \\(their lines are above\\); rows stopped before their launch was answered: \\d`,
      ),
    );
  });

  test("SIGINT: no new launch starts, every run launched is printed, exit 130", async () => {
    emulator.setHandler("CreateWorkflowLaunch", async (_, answer) => {
      await sleep(200);
      return answer();
    });
    const stdin = [
      "pipeline,run-name",
      ...Array.from({ length: 40 }, (_, i) => `rnaseq,r${i}`),
    ].join("\n");
    const child = startCli(cli.main, ["launch", "--rows", "-"], { env: env() });
    child.stdin!.end(stdin);
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    while (!stdout.includes("\n")) await sleep(20);
    child.kill("SIGINT");
    const [code] = await once(child, "close");
    expect(code).toBe(EXIT.sigint);
    const printed = lines(stdout) as { workflowId?: string; row: number }[];
    expect(printed.every((line) => line.workflowId !== undefined)).toBe(true);
    // Every launch request the service received has its line: no run is lost.
    expect(printed.length).toBe(launches().length);
    expect(printed.length).toBeLessThan(40);
    expect(stderr).toMatch(
      new RegExp(
        `Interrupted by SIGINT: launched ${printed.length} of 40 rows \\(their lines are above\\); rows stopped before their launch was answered: \\d`,
      ),
    );
  });
});
