import { once } from "node:events";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import { beforeAll, expect, test } from "vitest";
import { EXIT } from "../../src/cli/exit-codes.js";
import { freePort } from "../helpers/ports.js";
import { emulatorEnv, sharedBuild, runCli, startCli, type BuiltCli } from "./cli.js";

let cli: BuiltCli;
beforeAll(async () => {
  cli = await sharedBuild();
});

const seed = {
  workspaces: [{ org: "acme", name: "prod", id: 42 }],
  computeEnvs: [{ name: "aws", workspaceId: 42, status: "AVAILABLE", id: "ce1" }],
};

/** Starts `seqera-api emulator --seed` and reads the two TOWER_* lines it prints. */
async function serve(
  ...args: string[]
): Promise<{ child: ChildProcess; env: Record<string, string> }> {
  const file = path.join(tmpdir(), `seed-${process.pid}.json`);
  await writeFile(file, JSON.stringify(seed));
  const child = startCli(cli.main, ["emulator", "--seed", file, ...args]);
  child.stdin!.end();
  const env = await emulatorEnv(child);
  return { child, env };
}

test.each(["SIGTERM", "SIGINT"] as const)(
  "serves on 127.0.0.1, prints its URL and token, answers the CLI, and stops on %s with exit 0",
  async (signal) => {
    const { child, env } = await serve();
    try {
      expect(Object.keys(env)).toEqual(["TOWER_API_ENDPOINT", "TOWER_ACCESS_TOKEN"]);
      expect(env.TOWER_API_ENDPOINT).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(env.TOWER_ACCESS_TOKEN).toMatch(/^\S{20,}$/);
      const launch = await runCli(
        cli.main,
        ["CreateWorkflowLaunch", "-F", "launch.pipeline=hello", "-F", "launch.computeEnvId=ce1"],
        { env: { ...env, TOWER_WORKSPACE_ID: "42" } },
      );
      expect(launch).toMatchObject({ code: EXIT.ok, stderr: "" });
      const { workflowId } = JSON.parse(launch.stdout);
      // The emulator moves a run one step each time it is described, so polling sees it end.
      const wait = await runCli(
        cli.main,
        ["wait", workflowId, "-w", "42", "--poll-interval", "50ms"],
        { env },
      );
      expect(wait).toMatchObject({ code: EXIT.ok, stderr: "" });
      expect(JSON.parse(wait.stdout)).toMatchObject({ id: workflowId, status: "SUCCEEDED" });
      // Another token is refused, as the service refuses it.
      const other = await runCli(cli.main, ["ListWorkflows"], {
        env: { ...env, TOWER_ACCESS_TOKEN: "nope" },
      });
      expect(other.code).toBe(EXIT.auth);
    } finally {
      const exited = once(child, "exit") as Promise<[number | null, string | null]>;
      child.kill(signal);
      const [code] = await exited;
      expect(code).toBe(EXIT.ok);
    }
  },
);

test("--port serves on that port; a workspace by name reaches operation calls", async () => {
  const port = await freePort();
  const { child, env } = await serve("--port", String(port));
  try {
    expect(env.TOWER_API_ENDPOINT).toBe(`http://127.0.0.1:${port}`);
    const listed = await runCli(cli.main, ["ListComputeEnvs"], {
      env: { ...env, TOWER_WORKSPACE_ID: "acme/prod" },
    });
    expect(listed).toMatchObject({ code: EXIT.ok, stderr: "" });
    expect(JSON.parse(listed.stdout).computeEnvs.map((c: { id: string }) => c.id)).toEqual(["ce1"]);
    const unknown = await runCli(cli.main, ["ListComputeEnvs", "-w", "acme/prd"], { env });
    expect(unknown.code).toBe(EXIT.usage);
    expect(unknown.stderr).toMatch(/acme\/prd.*acme\/prod/s);
  } finally {
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    await exited;
  }
});

test("a bad --port is one line and exit 2, before anything listens", async () => {
  const result = await runCli(cli.main, ["emulator", "--port", "99999"]);
  expect(result).toMatchObject({ code: EXIT.usage, stdout: "" });
  expect(result.stderr).toBe(
    'seqera-api: --port takes a port number from 1 to 65535, got "99999".\n',
  );
});

test("--handlers answers chosen operations from a module; an answer the schema rejects is a 500 naming the handler", async () => {
  const file = path.join(tmpdir(), `handlers-${process.pid}.mjs`);
  await writeFile(
    file,
    `export default {
      ListDataStudios: () => ({ status: 200, body: { studios: [], totalSize: 7 } }),
      "GET /studios/{sessionId}": (request) =>
        request.params.sessionId === "bad" ? { status: 200, body: { statusInfo: "up" } } : undefined,
    };\n`,
  );
  const { child, env } = await serve("--handlers", file);
  try {
    const listed = await runCli(cli.main, ["ListDataStudios", "-w", "42"], { env });
    expect(listed).toMatchObject({ code: EXIT.ok, stderr: "" });
    expect(JSON.parse(listed.stdout)).toEqual({ studios: [], totalSize: 7 });
    const bad = await runCli(cli.main, ["GET", "/studios/bad", "-w", "42"], { env });
    expect(bad.stderr).toMatch(
      /The handler of DescribeDataStudio answered a body the response schema rejects: body\/statusInfo must be object/,
    );
  } finally {
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    await exited;
  }
});

test("a --handlers module that cannot be used is one line and exit 2", async () => {
  const file = path.join(tmpdir(), `handlers-bad-${process.pid}.mjs`);
  await writeFile(file, "export default 42;\n");
  const result = await runCli(cli.main, ["emulator", "--handlers", file]);
  expect(result).toMatchObject({ code: EXIT.usage, stdout: "" });
  expect(result.stderr).toBe(
    `seqera-api: --handlers ${file}: the module's default export must be { OperationId: (request) => answer } or (emulator) => {...}.\n`,
  );
});
