import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Emulator } from "seqera-api-client/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { EXIT } from "../../src/cli/exit-codes.js";
import { runCli, towerEnv, type BuiltCli, type RunOptions, cliAndEmulator } from "./cli.js";

let cli: BuiltCli;
let emulator: Emulator;
const VALUE = "s3cr3t-Value-never-shown";
const KEYS = { accessKey: "AKIAEXAMPLEKEY0001", secretKey: "wJalrXUtnFEMI-never-shown" };

beforeAll(async () => {
  ({ cli, emulator } = await cliAndEmulator({
    seed: {
      workspaces: [{ org: "acme", name: "prod", id: 42 }],
      credentials: [{ id: "c1", name: "aws-prod", provider: "aws", workspaceId: 42 }],
      computeEnvs: [
        { id: "ce1", name: "batch", workspaceId: 42, status: "AVAILABLE", credentialsId: "c1" },
        { id: "ce2", name: "new-batch", workspaceId: 42, status: "CREATING" },
      ],
      secrets: [{ name: "DB_PASSWORD", workspaceId: 42, value: "old" }],
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

const seqera = (args: string[], options: RunOptions = {}) =>
  runCli(cli.main, [...args, "-w", "acme/prod"], {
    env: towerEnv(emulator),
    ...options,
  });
const sent = (operationId: string) =>
  emulator.requests.filter((r) => r.operationId === operationId).map((r) => r.body);

describe("secrets set", () => {
  test("from standard input: created, then updated; the value is sent, never printed", async () => {
    const created = await seqera(["secrets", "set", "API_TOKEN", "--from-file", "-"], {
      stdin: `${VALUE}\n`,
    });
    expect(created).toMatchObject({ code: EXIT.ok, stderr: "" });
    expect(JSON.parse(created.stdout)).toEqual({
      secretId: expect.any(Number),
      name: "API_TOKEN",
      created: true,
    });
    // One final line end is not part of the value.
    expect(sent("CreatePipelineSecret")).toEqual([{ name: "API_TOKEN", value: VALUE }]);
    const file = path.join(tmpdir(), `${process.pid}-secret.txt`);
    await writeFile(file, "rotated-value");
    const updated = await seqera(["secrets", "set", "API_TOKEN", "--from-file", file]);
    expect(JSON.parse(updated.stdout)).toMatchObject({ name: "API_TOKEN", created: false });
    expect(sent("UpdatePipelineSecret")).toEqual([{ value: "rotated-value" }]);
    expect(created.stdout + updated.stdout).not.toContain(VALUE);
  });

  test("an error echoing the value, with --verbose: the value is on no line", async () => {
    emulator.setHandler("UpdatePipelineSecret", () => ({
      status: 400,
      body: { message: `Invalid secret value '${VALUE}'` },
    }));
    const result = await seqera(
      ["secrets", "set", "DB_PASSWORD", "--from-file", "-", "--verbose"],
      {
        stdin: VALUE,
      },
    );
    expect(result.code).toBe(EXIT.usage);
    expect(result.stderr).toContain("400");
    expect(result.stderr).toContain("[REDACTED]");
    expect(result.stderr + result.stdout).not.toContain(VALUE);
    expect(result.stderr + result.stdout).not.toContain(VALUE.slice(4, 14));
  });

  test("a short value ('a'): an error echoing it hides it, and the rest of the line reads as it is", async () => {
    emulator.setHandler("UpdatePipelineSecret", () => ({
      status: 400,
      body: { message: "Invalid secret value 'a': a value is too short" },
    }));
    const result = await seqera(["secrets", "set", "DB_PASSWORD", "--from-file", "-"], {
      stdin: "a",
    });
    expect(result.code).toBe(EXIT.usage);
    expect(result.stderr).toContain(
      "Invalid secret value '[REDACTED]': [REDACTED] value is too short",
    );
    expect(result.stderr).toContain("seqera-api secrets");
  });

  test.each([
    [["secrets", "set", "X"], "--from-file"],
    [["secrets", "set", "X", VALUE], "Usage: seqera-api secrets set <name> --from-file"],
    // tw's words point at set.
    [
      ["secrets", "add"],
      /use seqera-api secrets set <name> --from-file <file\|-> \(creates or updates\)\.\n$/,
    ],
    [
      ["credentials", "update"],
      /use seqera-api credentials set <name> --provider <p> --from-file /,
    ],
    [["secrets"], /add: secrets set, update: secrets set, delete: DeletePipelineSecret/],
  ])("%j: exit 2, nothing sent", async (args, message) => {
    const result = await seqera(args);
    expect(result).toMatchObject({ code: EXIT.usage, stdout: "" });
    expect(result.stderr).toMatch(message);
    expect(emulator.requests).toEqual([]);
  });

  test("an empty value is refused before any request", async () => {
    const result = await seqera(["secrets", "set", "X", "--from-file", "-"], { stdin: "\n" });
    expect(result).toMatchObject({ code: EXIT.usage, stdout: "" });
    expect(result.stderr).toBe(
      "seqera-api: --from-file (stdin) is empty: a secret needs a value.\n",
    );
    expect(emulator.requests).toEqual([]);
  });
});

test("secrets --help: its usage, that the value is never an argument", async () => {
  const result = await seqera(["secrets", "--help"]);
  expect(result.code).toBe(EXIT.ok);
  expect(result.stdout).toMatch(/^seqera-api secrets set <name> --from-file <file\|->\n/);
  expect(result.stdout).toMatch(/--from-file file +The secret's value/);
});

describe("credentials set", () => {
  test("existing ones: the keys replaced, provider kept, the compute envs using them", async () => {
    const result = await seqera(["credentials", "set", "aws-prod", "--from-file", "-"], {
      stdin: JSON.stringify(KEYS),
    });
    expect(result).toMatchObject({ code: EXIT.ok, stderr: "" });
    const printed = JSON.parse(result.stdout);
    expect(printed).toMatchObject({ credentialsId: "c1", created: false });
    expect(printed.computeEnvs.map((c: { id: string }) => c.id)).toEqual(["ce1"]);
    expect(sent("UpdateCredentials")).toMatchObject([
      {
        credentials: { name: "aws-prod", provider: "aws", keys: { discriminator: "aws", ...KEYS } },
      },
    ]);
    expect(result.stdout).not.toContain(KEYS.secretKey);
  });

  test("new ones with --provider: created; without it: exit 2, nothing created", async () => {
    const refused = await seqera(["credentials", "set", "gcp-dev", "--from-file", "-"], {
      stdin: '{"data": "{}"}',
    });
    expect(refused.code).toBe(EXIT.usage);
    expect(refused.stderr).toContain("give --provider");
    expect(sent("CreateCredentials")).toEqual([]);
    const result = await seqera(
      ["credentials", "set", "azure-dev", "--provider", "azure", "--from-file", "-", "-d", "dev"],
      {
        stdin:
          '{"batchName": "b", "batchKey": "k-never-shown", "storageName": "s", "storageKey": "x"}',
      },
    );
    expect(result).toMatchObject({ code: EXIT.ok, stderr: "" });
    expect(JSON.parse(result.stdout)).toMatchObject({ created: true, computeEnvs: [] });
    expect(sent("CreateCredentials")).toMatchObject([
      { credentials: { name: "azure-dev", provider: "azure", description: "dev" } },
    ]);
  });

  test("keys that are not a JSON object: exit 2 without quoting them", async () => {
    const result = await seqera(["credentials", "set", "aws-prod", "--from-file", "-"], {
      stdin: `{"secretKey": ${KEYS.secretKey}}`,
    });
    expect(result.code).toBe(EXIT.usage);
    expect(result.stderr).toContain("is not JSON (line 1");
    expect(result.stderr).not.toContain(KEYS.secretKey);
    expect(emulator.requests).toEqual([]);
  });
});

describe("compute-envs wait", () => {
  const wait = (name: string, ...more: string[]) =>
    seqera(["compute-envs", "wait", name, "--poll-interval", "20ms", ...more]);
  const describes = () => emulator.requests.filter((r) => r.operationId === "DescribeComputeEnv");

  test("CREATING, then AVAILABLE: prints it, exit 0", async () => {
    emulator.state.computeEnvs.setStatus("ce2", "CREATING");
    emulator.setHandler("DescribeComputeEnv", (_, answer) => {
      if (describes().length >= 2) emulator.state.computeEnvs.setStatus("ce2", "AVAILABLE");
      return answer();
    });
    const result = await wait("new-batch");
    expect(result).toMatchObject({ code: EXIT.ok, stderr: "" });
    expect(JSON.parse(result.stdout)).toMatchObject({ id: "ce2", status: "AVAILABLE" });
    expect(describes().length).toBeGreaterThanOrEqual(2);
  });

  test("ERRORED: printed, the service's message on stderr, exit 1", async () => {
    emulator.state.computeEnvs.setStatus("ce2", "ERRORED", "Access denied to the bucket");
    const result = await wait("new-batch");
    expect(result.code).toBe(EXIT.runFailed);
    expect(JSON.parse(result.stdout)).toMatchObject({ id: "ce2", status: "ERRORED" });
    expect(result.stderr).toBe(
      "seqera-api: Compute environment new-batch is ERRORED: Access denied to the bucket\n",
    );
  });

  test("still CREATING at --timeout: printed as last seen, exit 3", async () => {
    emulator.state.computeEnvs.setStatus("ce2", "CREATING");
    const result = await wait("new-batch", "--timeout", "1s");
    expect(result.code).toBe(EXIT.timeout);
    expect(JSON.parse(result.stdout)).toMatchObject({ id: "ce2", status: "CREATING" });
    expect(result.stderr).toBe(
      "seqera-api: Gave up waiting for compute environment ce2 after 1000 ms: still CREATING\n",
    );
  });

  test("an unknown name: exit 2 with the near names, nothing polled", async () => {
    const result = await wait("batchh");
    expect(result.code).toBe(EXIT.usage);
    expect(result.stderr).toContain('"batch"');
    expect(describes()).toEqual([]);
  });
});
