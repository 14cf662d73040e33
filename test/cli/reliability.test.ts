/**
 * The CLI never runs past --timeout, never loses a launched run's id, never passes the
 * service's escape sequences to a terminal and never echoes a secret: the compiled CLI as a
 * child process against a hostile loopback server.
 */
import { once } from "node:events";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { EXIT } from "../../src/cli/exit-codes.js";
import { useTestServer, type RecordedRequest, type ScriptedResponse } from "../helpers/server.js";
import { sharedBuild, runCli, runCommand, startCli, type BuiltCli, type CliResult } from "./cli.js";

const server = await useTestServer();
let cli: BuiltCli;
let dir: string;
beforeAll(async () => {
  [cli, dir] = await Promise.all([sharedBuild(), mkdtemp(path.join(tmpdir(), "seqera-rel-"))]);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const token = "reliability-token-5b8e1d0c9a";
const env = () => ({ TOWER_API_ENDPOINT: server.url, TOWER_ACCESS_TOKEN: token });
/** An answer that never comes (the server drops it when the file ends). */
const never: ScriptedResponse = { delayMs: 600_000 };

async function timed(args: string[], limitMs = 30_000) {
  const started = performance.now();
  const result = await runCli(cli.main, args, { env: env(), limitMs });
  return { ...result, ms: performance.now() - started };
}

/** Nothing of the token, whole or in part, on either stream. */
function expectNoToken(result: CliResult) {
  for (const text of [result.stdout, result.stderr]) {
    expect(text).not.toContain(token);
    expect(text).not.toContain(token.slice(0, 12));
  }
}

/**
 * A workspace 5 with a primary compute environment; the launch answers w1 (after
 * `launchDelayMs`), the run is described by `describe`.
 */
function launchable(
  describe: () => ScriptedResponse,
  launchDelayMs = 0,
): (request: RecordedRequest) => ScriptedResponse {
  return (request) => {
    switch (`${request.method} ${request.pathname}`) {
      case "GET /compute-envs":
        return { body: { computeEnvs: [{ id: "ce1", name: "aws", primary: true }] } };
      case "GET /compute-envs/ce1":
        return { body: { computeEnv: { id: "ce1", config: { workDir: "s3://work" } } } };
      case "POST /workflow/launch":
        return { body: { workflowId: "w1" }, delayMs: launchDelayMs };
      case "GET /workflow/w1":
        return describe();
      default:
        return { status: 404, body: { message: "not here" } };
    }
  };
}

const launchArgs = ["launch", "https://github.com/nf-core/rnaseq", "-w", "5"];

/** As launchable, with a run w0 to resume (its launch l0, session s0): relaunching it answers w1. */
function relaunchable(describe: () => ScriptedResponse) {
  const launch = launchable(describe);
  return (request: RecordedRequest): ScriptedResponse => {
    switch (`${request.method} ${request.pathname}`) {
      case "GET /workflow/w0":
        return {
          body: { workflow: { id: "w0", status: "FAILED", launchId: "l0", sessionId: "s0" } },
        };
      case "GET /workflow/w0/launch":
        return {
          body: {
            launch: {
              id: "l0",
              pipeline: "https://github.com/nf-core/rnaseq",
              computeEnv: { id: "ce1" },
              workDir: "s3://work",
              resumeCommitId: "abc123",
            },
          },
        };
      default:
        return launch(request);
    }
  };
}

/** Each command that launches: its arguments, its server, and what its launch request holds. */
const LAUNCHING = {
  launch: {
    args: launchArgs,
    serve: launchable,
    sent: { pipeline: "https://github.com/nf-core/rnaseq" },
  },
  relaunch: {
    args: ["relaunch", "w0", "-w", "5"],
    serve: relaunchable,
    sent: { id: "l0", resume: true, sessionId: "s0" },
  },
};
/** The launch request of the one POST /workflow/launch the server received. */
const launched = () =>
  JSON.parse(server.requests.find((r) => r.method === "POST")!.body.toString()).launch;
const posts = () => server.requests.filter((r) => r.method === "POST").length;

describe("--timeout bounds the whole command", () => {
  test("launch against a server that never answers: exit 3 at the deadline", async () => {
    server.handle(() => never);
    const result = await timed([...launchArgs, "--timeout", "2s"]);
    expect(result).toMatchObject({ code: EXIT.timeout, stdout: "" });
    expect(result.stderr).toBe(
      "seqera-api: launch https://github.com/nf-core/rnaseq did not finish within --timeout 2s.\n",
    );
    // Was 60 s (the request's own timeout); the margin is for a loaded machine.
    expect(result.ms).toBeLessThan(15_000);
    expect(posts()).toBe(0);
  });

  test.each(["launch", "relaunch"] as const)(
    "%s --wait whose run never answers: exit 3 at the deadline, the workflowId printed",
    async (command) => {
      const { args, serve, sent } = LAUNCHING[command];
      server.handle(serve(() => never));
      const result = await timed([...args, "--wait", "--timeout", "2s"]);
      expect(result.code).toBe(EXIT.timeout);
      expect(JSON.parse(result.stdout)).toEqual({ workflowId: "w1", createdLabels: [] });
      expect(result.stderr).toBe(
        "seqera-api: Gave up waiting for run w1 after 2000 ms: no status received\n",
      );
      expect(result.ms).toBeLessThan(15_000);
      expect(posts()).toBe(1);
      expect(launched()).toMatchObject(sent);
    },
  );

  test("wait with a workspace lookup that stalls: exit 3 at the deadline", async () => {
    server.handle(() => never);
    const result = await timed(["wait", "w1", "-w", "acme/prod", "--timeout", "2s"]);
    expect(result).toMatchObject({ code: EXIT.timeout, stdout: "" });
    // The workspace is looked up (or read from the cache) before the wait begins.
    expect(result.stderr).toBe("seqera-api: wait w1 did not finish within --timeout 2s.\n");
    expect(result.ms).toBeLessThan(15_000);
    // The lookup was under way; the run was never asked for.
    expect(server.requests.length).toBeGreaterThan(0);
    expect(server.requests.some((r) => r.pathname === "/workflow/w1")).toBe(false);
  });

  test("wait whose failed-task listing stalls: exit 3 at the deadline, naming the listing", async () => {
    server.handle((request) =>
      request.pathname === "/workflow/w1"
        ? {
            body: {
              workflow: { id: "w1", status: "FAILED" },
              progress: { workflowProgress: { failed: 1 } },
            },
          }
        : never,
    );
    const result = await timed(["wait", "w1", "-w", "5", "--timeout", "2s"]);
    expect(result.code).toBe(EXIT.timeout);
    expect(JSON.parse(result.stdout)).toEqual({ id: "w1", status: "FAILED" });
    expect(result.stderr).toBe(
      "seqera-api: Run w1 ended FAILED, but listing its failed tasks did not finish within --timeout 2s.\n",
    );
    expect(result.ms).toBeLessThan(15_000);
    expect(server.requests.map((r) => r.pathname)).toEqual(["/workflow/w1", "/workflow/w1/tasks"]);
  });

  test("logs --follow against a server that never answers: exit 3 at the deadline", async () => {
    server.handle(() => never);
    const result = await timed(["logs", "w1", "-w", "5", "--follow", "--timeout", "2s"]);
    expect(result).toMatchObject({ code: EXIT.timeout, stdout: "" });
    expect(result.stderr).toBe("seqera-api: logs w1 did not finish within --timeout 2s.\n");
    expect(result.ms).toBeLessThan(15_000);
  });

  test("datasets add against a server that never answers: exit 3 at the deadline", async () => {
    const file = path.join(dir, "samples.csv");
    await writeFile(file, "sample,fastq\ns1,s3://bucket/s1.fq\n");
    server.handle(() => never);
    const result = await timed(["datasets", "add", "samples", file, "-w", "5", "--timeout", "2s"]);
    expect(result).toMatchObject({ code: EXIT.timeout, stdout: "" });
    expect(result.stderr).toBe(
      "seqera-api: datasets add samples did not finish within --timeout 2s.\n",
    );
    expect(result.ms).toBeLessThan(15_000);
  });
});

/** The CLI started, and its output collected until it ends. */
function started(args: string[]) {
  const child = startCli(cli.main, args, { env: env() });
  child.stdin!.end();
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const killer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const ended = once(child, "close").then(([code, signal]) => {
    clearTimeout(killer);
    return { code, signal, stdout, stderr } as CliResult;
  });
  return { child, ended, stderr: () => stderr };
}

/** Resolves once `done()` holds (checked every 20 ms); fails after 20 s. */
async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + 20_000;
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`${what} never happened`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Resolves when the server has received a request matching `match`. */
const received = (match: (request: RecordedRequest) => boolean) =>
  until(() => server.requests.some(match), "the request");

describe("an interrupt never loses a launched run", () => {
  test.each([
    ["launch", "SIGINT", EXIT.sigint],
    ["launch", "SIGTERM", EXIT.sigterm],
    ["relaunch", "SIGINT", EXIT.sigint],
    ["relaunch", "SIGTERM", EXIT.sigterm],
  ] as const)(
    "%s --wait, %s while waiting: the workflowId on stdout, exit %i",
    async (command, signal, code) => {
      const { args, serve, sent } = LAUNCHING[command];
      server.handle(serve(() => ({ body: { workflow: { id: "w1", status: "RUNNING" } } })));
      const { child, ended } = started([...args, "--wait", "--poll-interval", "100ms"]);
      await received((r) => r.pathname === "/workflow/w1");
      const at = performance.now();
      child.kill(signal);
      const result = await ended;
      expect(result).toMatchObject({ code, signal: null });
      // The run as last seen goes with it.
      expect(JSON.parse(result.stdout)).toMatchObject({ workflowId: "w1", createdLabels: [] });
      expect(result.stderr).toBe(
        `seqera-api: Interrupted by ${signal} after launching run w1, which goes on; follow it with seqera-api wait w1.\n`,
      );
      expect(performance.now() - at).toBeLessThan(10_000);
      expect(posts()).toBe(1);
      expect(launched()).toMatchObject(sent);
    },
  );

  test("SIGINT while the launch request is in flight: it is finished, then the id printed", async () => {
    server.handle(launchable(() => never, 1500));
    const { child, ended } = started([...launchArgs, "--wait"]);
    await received((r) => r.method === "POST");
    child.kill("SIGINT");
    const result = await ended;
    expect(result.code).toBe(EXIT.sigint);
    expect(JSON.parse(result.stdout)).toEqual({ workflowId: "w1", createdLabels: [] });
    expect(result.stderr).toBe(
      "seqera-api: SIGINT: finishing the launch request so that its workflowId is not lost; send SIGINT again to stop at once.\n" +
        "seqera-api: Interrupted by SIGINT after launching run w1, which goes on; follow it with seqera-api wait w1.\n",
    );
    // Never waited for: the interrupt came first.
    expect(server.requests.some((r) => r.pathname === "/workflow/w1")).toBe(false);
    expect(posts()).toBe(1);
  });

  test("SIGINT twice during a launch request that never ends: stops at once, exit 130", async () => {
    server.handle(launchable(() => never, 600_000));
    const { child, ended, stderr } = started([...launchArgs]);
    await received((r) => r.method === "POST");
    child.kill("SIGINT");
    // Two signals sent at once may arrive as one: the second goes once the first was seen.
    await until(() => stderr().includes("finishing the launch request"), "the first SIGINT");
    const at = performance.now();
    child.kill("SIGINT");
    const result = await ended;
    expect(result).toMatchObject({ code: EXIT.sigint, signal: null, stdout: "" });
    expect(result.stderr).toMatch(/\nseqera-api: Interrupted by SIGINT\.\n$/);
    expect(performance.now() - at).toBeLessThan(10_000);
  });

  test("wait, SIGTERM: stops, exit 143", async () => {
    server.handle(() => ({ body: { workflow: { id: "w1", status: "RUNNING" } } }));
    const { child, ended } = started(["wait", "w1", "-w", "5", "--poll-interval", "100ms"]);
    await received((r) => r.pathname === "/workflow/w1");
    child.kill("SIGTERM");
    const result = await ended;
    expect(result).toMatchObject({ code: EXIT.sigterm, signal: null });
    // The run as last seen, for a script to read its last status.
    expect(JSON.parse(result.stdout)).toMatchObject({ id: "w1", status: "RUNNING" });
    expect(result.stderr).toBe("seqera-api: Interrupted by SIGTERM.\n");
  });
});

/** Runs the CLI with stdout and stderr on a pseudo-terminal (util-linux `script`). */
async function onTerminal(args: string[]): Promise<CliResult> {
  const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
  const command = [process.execPath, cli.main, ...args].map(quote).join(" ");
  return runCommand("script", ["-q", "-e", "-c", command, "/dev/null"], { env: env() });
}

// What a hostile service puts in text: a clipboard write (OSC 52), a window title (OSC 0),
// a cursor move (CSI), a one-character CSI (C1), a bare CR and a backspace hiding text.
const HOSTILE = "A\x1b]52;c;cm0gLXJmIC8=\x07B\x1b]0;pwned\x07C\x1b[2JD\x9b31mE\rF\bG";
const INERT = "A\\x1b]52;c;cm0gLXJmIC8=\\x07B\\x1b]0;pwned\\x07C\\x1b[2JD\\x9b31mE\\x0dF\\x08G";

/** No escape, bell, C1 control, bare CR (a pty writes "\r\n" for "\n") or backspace. */
function expectInert(text: string) {
  expect(text).not.toMatch(/[\x07\x08\x1b\x9b]|\r(?!\n)/);
}

describe("on a terminal, the service's control characters are inert", () => {
  test("logs: each control shown as \\xHH; into a pipe the bytes stay as sent", async () => {
    server.handle(() => ({
      headers: { "content-type": "text/plain" },
      body: `line one\n${HOSTILE}\n`,
    }));
    const tty = await onTerminal(["logs", "w1", "-w", "5"]);
    expect(tty.code).toBe(EXIT.ok);
    expectInert(tty.stdout);
    expect(tty.stdout).toContain(INERT);
    const piped = await runCli(cli.main, ["logs", "w1", "-w", "5"], { env: env() });
    expect(piped.stdout).toBe(`line one\n${HOSTILE}\n`);
  });

  test("the progress line and the JSON of wait quote a hostile run id inertly", async () => {
    server.handle(() => ({ body: { workflow: { id: HOSTILE, status: "SUCCEEDED" } } }));
    const tty = await onTerminal(["wait", "w1", "-w", "5"]);
    expect(tty.code).toBe(EXIT.ok);
    // Our own "\r\x1b[K" clears the progress line: nothing else may pass.
    expectInert(tty.stdout.replaceAll("\r\x1b[K", ""));
    expect(tty.stdout).toContain(String.raw`"id": "A\u001b]52;c;cm0gLXJmIC8=\u0007B`);
    expect(tty.stdout).toContain(String.raw`D\u009b31mE\rF\bG"`);
  });

  test("an error message quoting the service: inert on stderr, terminal or not", async () => {
    server.handle(() => ({ status: 500, body: { message: `boom ${HOSTILE}` } }));
    const tty = await onTerminal(["ListWorkflows", "-w", "5"]);
    expect(tty.code).toBe(EXIT.failure);
    expectInert(tty.stdout);
    expect(tty.stdout).toContain("boom A\\x1b]52;c;");
    const piped = await runCli(cli.main, ["ListWorkflows", "-w", "5"], { env: env() });
    expect(piped.code).toBe(EXIT.failure);
    expectInert(piped.stderr);
    expect(piped.stderr).toMatch(
      /^seqera-api: 500 ListWorkflows: [^\n]*boom A\\x1b\]52;c;[^\n]*\n$/,
    );
  });
});

describe("input and answers that must not leak or crash", () => {
  const secret = "s3cr3t-hunter2-value-91f0";

  test("a bad --params YAML: file, line, column and what is wrong; not its content", async () => {
    const file = path.join(dir, "params.yaml");
    await writeFile(file, `outdir: s3://out\npassword: "${secret}\n`);
    const result = await timed([...launchArgs, "--params-file", file]);
    expect(result).toMatchObject({ code: EXIT.usage, stdout: "" });
    expect(result.stderr).toBe(
      `seqera-api: --params-file ${file} is neither JSON nor YAML (line 3, column 1: Missing closing "quote).\n`,
    );
    expect(server.requests).toEqual([]);
  });

  test("a --params YAML with an unknown tag: refused, its value not printed", async () => {
    const file = path.join(dir, "tagged.yaml");
    await writeFile(file, `password: !${secret} x\n`);
    const result = await timed([...launchArgs, "--params-file", file]);
    expect(result).toMatchObject({ code: EXIT.usage, stdout: "" });
    expect(result.stderr).toBe(
      `seqera-api: --params-file ${file} is neither JSON nor YAML (line 1, column 11: Unresolved tag).\n`,
    );
    expect(server.requests).toEqual([]);
  });

  test.each(["--config", "--pre-run", "--post-run"])(
    "a Latin-1 %s file: refused with exit 2, its text not printed, nothing sent",
    async (flag) => {
      const file = path.join(dir, `latin1${flag}.txt`);
      await writeFile(file, Buffer.from(`// caf\xe9\nsecret = "${secret}"\n`, "latin1"));
      const result = await timed([...launchArgs, flag, file]);
      expect(result).toMatchObject({ code: EXIT.usage, stdout: "" });
      expect(result.stderr).toBe(
        `seqera-api: ${flag} ${file} is not UTF-8 text (line 1, column 7): save it as UTF-8, e.g. iconv -f latin1 -t utf-8.\n`,
      );
      expect(server.requests).toEqual([]);
    },
  );

  test("a bad --input JSON: file, line, column and what is wrong; not its content", async () => {
    const file = path.join(dir, "body.json");
    await writeFile(file, `{\n  "name": "x",\n  "value": ${secret}\n}\n`);
    const result = await timed(["CreateLabel", "-w", "5", "--input", file]);
    expect(result).toMatchObject({ code: EXIT.usage, stdout: "" });
    expect(result.stderr).toBe(
      `seqera-api: --input ${file} is not JSON (line 3, column 12: invalid symbol).\n`,
    );
    expect(result.stderr).not.toContain(secret.slice(0, 6));
    expect(server.requests).toEqual([]);
  });

  test("a Latin-1 --input: refused with exit 2, nothing sent", async () => {
    const file = path.join(dir, "latin1.json");
    await writeFile(file, Buffer.from('{"name": "caf\xe9"}', "latin1"));
    const result = await timed(["CreateLabel", "-w", "5", "--input", file]);
    expect(result).toMatchObject({ code: EXIT.usage, stdout: "" });
    expect(result.stderr).toBe(
      `seqera-api: --input ${file} is not UTF-8 text (line 1, column 14): save it as UTF-8, e.g. iconv -f latin1 -t utf-8.\n`,
    );
    expect(server.requests).toEqual([]);
  });

  test("a Latin-1 --input on standard input: refused the same way", async () => {
    const result = await runCommand(
      "sh",
      [
        "-c",
        `printf '{"name": "caf\\351"}' | "${process.execPath}" "${cli.main}" CreateLabel -w 5 --input -`,
      ],
      { env: env() },
    );
    expect(result).toMatchObject({ code: EXIT.usage, stdout: "" });
    expect(result.stderr).toBe(
      "seqera-api: Standard input is not UTF-8 text (line 1, column 14): save it as UTF-8, e.g. iconv -f latin1 -t utf-8.\n",
    );
    expect(server.requests).toEqual([]);
  });

  test.each([
    [["ListWorkflows", "--url", token]],
    [["ListWorkflows", "-w", token]],
    [["CreateLabel", "-w", "5", "--input", token]],
    [[token]],
  ])("an argument that is the token, %j: never echoed", async (args) => {
    const result = await timed(args);
    expect(result.code).toBe(EXIT.usage);
    expect(result.stderr).toMatch(/^seqera-api: [^\n]*\[REDACTED\][^\n]*\n$/);
    expectNoToken(result);
    expect(server.requests).toEqual([]);
  });

  test("a JSON answer nested 100,000 deep: a clear error, exit 5", async () => {
    const depth = 100_000;
    server.handle(() => ({
      headers: { "content-type": "application/json" },
      body: `{"workflows": ${"[".repeat(depth)}${"]".repeat(depth)}}`,
    }));
    const result = await timed(["ListWorkflows", "-w", "5"]);
    expect(result).toMatchObject({ code: EXIT.failure, stdout: "" });
    // Refused by the client as it reads the answer, before anything walks it.
    expect(result.stderr).toBe(
      "seqera-api: 200 ListWorkflows: GET /workflow answered 200 with JSON nested deeper than 1000 levels, which no answer of the API does; refused before any code walks it (it would overflow the stack)\n",
    );
  });
});
