import { once } from "node:events";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import { beforeAll, expect, test } from "vitest";
import { EXIT } from "../../src/cli/exit-codes.js";
import { Faults } from "../../src/testing/faults.js";
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

test("runs move when listed too, so `watch` (one list call per poll) sees them end", async () => {
  const { child, env } = await serve();
  try {
    const launch = await runCli(
      cli.main,
      ["CreateWorkflowLaunch", "-F", "launch.pipeline=hello", "-F", "launch.computeEnvId=ce1"],
      { env: { ...env, TOWER_WORKSPACE_ID: "42" } },
    );
    const { workflowId } = JSON.parse(launch.stdout);
    const watch = await runCli(
      cli.main,
      ["watch", "-w", "42", "--poll-interval", "50ms", "--timeout", "20s"],
      { env },
    );
    expect(watch).toMatchObject({ code: EXIT.ok, stderr: "" });
    const changes = watch.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(changes.at(-1).run).toMatchObject({ id: workflowId, status: "SUCCEEDED" });
  } finally {
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    await exited;
  }
});

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

/** Stops a served emulator and waits for it to exit. */
async function stop(child: ChildProcess): Promise<void> {
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  await exited;
}

/** Calls `GET /user-info` `count` times at once with the emulator's token: the statuses, sorted. */
async function statuses(env: Record<string, string>, count: number): Promise<number[]> {
  const call = () =>
    fetch(`${env.TOWER_API_ENDPOINT}/user-info`, {
      headers: { authorization: `Bearer ${env.TOWER_ACCESS_TOKEN}` },
    }).then(async (response) => {
      await response.arrayBuffer();
      return response.status;
    });
  return (await Promise.all(Array.from({ length: count }, call))).sort();
}

test("--rate-limit and --rate-limit-mode sliding: the call over the limit is a 429 at once", async () => {
  const { child, env } = await serve("--rate-limit", "2", "--rate-limit-mode", "sliding");
  try {
    expect(await statuses(env, 3)).toEqual([200, 200, 429]);
  } finally {
    await stop(child);
  }
});

test("--faults: shares of requests get the service's 429 or a 503, drawn from the seed as the library's faults are", async () => {
  const { child, env } = await serve("--faults", "rate-limited=1");
  try {
    const response = await fetch(`${env.TOWER_API_ENDPOINT}/user-info`, {
      headers: { authorization: `Bearer ${env.TOWER_ACCESS_TOKEN}` },
    });
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("0");
    expect(await response.json()).toEqual({
      message: "Maximum request rate exceeded. Wait 0secs before issuing a new request",
    });
  } finally {
    await stop(child);
  }
  const mixed = await serve("--faults", "unavailable=0.5,seed=7", "--rate-limit", "off");
  try {
    const library = new Faults();
    library.configure({ unavailableRate: 0.5, seed: 7 });
    const drawn = Array.from({ length: 40 }, () => library.next().kind);
    const unavailable = drawn.filter((kind) => kind === "unavailable").length;
    expect(unavailable).toBeGreaterThan(10);
    const seen = await statuses(mixed.env, 40);
    expect(seen.filter((s) => s === 503).length).toBe(unavailable);
    expect(seen.filter((s) => s === 200).length).toBe(40 - unavailable);
  } finally {
    await stop(mixed.child);
  }
});

test.each([
  [
    ["--rate-limit", "fast"],
    '--rate-limit takes calls per second per token (a whole number, 1 or more) or off, got "fast".',
  ],
  [["--rate-limit-mode", "strict"], '--rate-limit-mode takes cycles or sliding, got "strict".'],
  [
    ["--rate-limit", "off", "--rate-limit-mode", "sliding"],
    "--rate-limit-mode needs a limit: drop --rate-limit off.",
  ],
  [
    ["--faults", "unavailable=2"],
    "--faults unavailable is a share of requests from 0 to 1, got 2.",
  ],
  [
    ["--faults", "timeout=0.1"],
    '--faults has no "timeout": it takes unavailable, reset, rate-limited, delay, seed.',
  ],
  [
    ["--faults", "reset"],
    '--faults takes kind=number pairs separated by commas (unavailable, reset, rate-limited, delay, seed), e.g. unavailable=0.1,seed=7; got "reset".',
  ],
  [["--faults", "unavailable=0.6,reset=0.6"], "--faults shares add up to 1.2, more than 1."],
])("emulator %j is one line and exit 2, before anything listens", async (args, message) => {
  const result = await runCli(cli.main, ["emulator", ...args]);
  expect(result).toMatchObject({ code: EXIT.usage, stdout: "" });
  expect(result.stderr).toBe(`seqera-api: ${message}\n`);
});

test("a seed with an unknown key or a date in neither form is one line and exit 2, naming the flag", async () => {
  const file = path.join(tmpdir(), `seed-bad-${process.pid}.json`);
  await writeFile(file, JSON.stringify({ runs: [{ submit: "-7h" }, { cots: 3 }] }));
  const unknown = await runCli(cli.main, ["emulator", "--seed", file]);
  expect(unknown).toMatchObject({ code: EXIT.usage, stdout: "" });
  expect(unknown.stderr).toMatch(
    new RegExp(
      `^seqera-api: --seed ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: The seed's runs\\[1\\] has an unknown key "cots" \\(did you mean "cost"\\?\\); the keys known there are .*\\.\\n$`,
    ),
  );
  await writeFile(file, JSON.stringify({ runs: [{ submit: "yesterday" }] }));
  const date = await runCli(cli.main, ["emulator", "--seed", file]);
  expect(date).toMatchObject({ code: EXIT.usage, stdout: "" });
  expect(date.stderr).toContain(`--seed ${file}: Not a date: "yesterday".`);
});
