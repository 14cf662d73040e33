/**
 * The CLI's own edges: its exit code when a reader of its output has gone, and the files it
 * reads (regular files only, bounded in size, within --timeout). The compiled CLI as a child
 * process against a loopback server.
 */
import { execFile } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { EXIT } from "../../src/cli/exit-codes.js";
import { freePort } from "../helpers/ports.js";
import { useTestServer } from "../helpers/server.js";
import { runCli, sharedBuild, startCli, type BuiltCli } from "./cli.js";

const execFileAsync = promisify(execFile);

const server = await useTestServer();
let cli: BuiltCli;
let dir: string;
beforeAll(async () => {
  [cli, dir] = await Promise.all([sharedBuild(), mkdtemp(path.join(tmpdir(), "seqera-pipes-"))]);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const env = () => ({ TOWER_API_ENDPOINT: server.url, TOWER_ACCESS_TOKEN: "pipes-token-4c1d9e" });

/** The CLI run with the reading end of one of its output pipes closed from the start. */
async function runWithClosed(
  stream: "stdout" | "stderr",
  args: string[],
): Promise<{ code: number | null; stdout?: string; stderr?: string }> {
  const child = startCli(cli.main, args, { env: env() });
  child.stdin!.end();
  child[stream]!.destroy();
  const other = stream === "stdout" ? child.stderr! : child.stdout!;
  let text = "";
  other.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
  const killer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const [code] = (await once(child, "close")) as [number | null];
  clearTimeout(killer);
  return { code, [stream === "stdout" ? "stderr" : "stdout"]: text };
}

const failedRun = {
  body: { workflow: { id: "w1", status: "FAILED" }, progress: { workflowProgress: { failed: 0 } } },
};

describe("the exit code survives a reader that has gone", () => {
  test("wait on a FAILED run with stdout closed: exit 1, the failure on stderr", async () => {
    server.handle(() => failedRun);
    const result = await runWithClosed("stdout", ["wait", "w1", "-w", "5"]);
    expect(result).toEqual({
      code: EXIT.runFailed,
      stderr: "seqera-api: Run w1 ended FAILED\n",
    });
  });

  test("wait on a FAILED run with stderr closed: exit 1, the run on stdout", async () => {
    server.handle(() => failedRun);
    const result = await runWithClosed("stderr", ["wait", "w1", "-w", "5"]);
    expect(result.code).toBe(EXIT.runFailed);
    expect(JSON.parse(result.stdout!)).toEqual({ id: "w1", status: "FAILED" });
  });

  test("a usage error with stderr closed: exit 2, nothing sent", async () => {
    const result = await runWithClosed("stderr", ["wait"]);
    expect(result).toEqual({ code: EXIT.usage, stdout: "" });
    expect(server.requests).toEqual([]);
  });

  test("a 403 with stderr closed: exit 4", async () => {
    server.handle(() => ({ status: 403, body: {} }));
    const result = await runWithClosed("stderr", ["ListWorkflows", "-w", "5"]);
    expect(result).toEqual({ code: EXIT.auth, stdout: "" });
    expect(server.requests.map((r) => r.pathname)).toEqual(["/workflow"]);
  });
});

test("--paginate with stdout closed: stops after the page it was writing, exit 0", async () => {
  const page = (offset: number) => ({
    body: {
      workflows: Array.from({ length: 100 }, (_, i) => ({ workflow: { id: `w${offset + i}` } })),
      totalSize: 100_000,
    },
  });
  server.handle((request) => page(Number(request.query.get("offset") ?? 0)));
  const result = await runWithClosed("stdout", ["ListWorkflows", "-w", "5", "--paginate"]);
  expect(result).toEqual({ code: EXIT.ok, stderr: "" });
  expect(server.requests.length).toBe(1);
});

describe("runs, report and watch with stdout closed: no more calls once a write finds it gone", () => {
  const run = (i: number, status = "SUCCEEDED") => ({
    id: `w${i}`,
    status,
    submit: new Date(Date.now() - (i + 1) * 60_000).toISOString(),
    complete: new Date(Date.now() - i * 60_000).toISOString(),
  });
  const list = (request: { query: URLSearchParams }, total: number) => {
    const offset = Number(request.query.get("offset") ?? 0);
    const size = Math.min(100, total - offset);
    return {
      body: {
        workflows: Array.from({ length: size }, (_, i) => ({ workflow: run(offset + i) })),
        totalSize: total,
      },
    };
  };

  test("runs: stops within the page after the one it was writing, exit 0", async () => {
    server.handle((request) => list(request, 100_000));
    const result = await runWithClosed("stdout", ["runs", "-w", "5"]);
    expect(result).toEqual({ code: EXIT.ok, stderr: "" });
    expect(server.requests.length).toBeLessThanOrEqual(2);
  });

  test("report: stops describing runs after the row that found the reader gone, exit 0", async () => {
    server.handle((request) =>
      request.pathname === "/workflow"
        ? list(request, 60)
        : { body: { workflow: run(Number(request.pathname.slice("/workflow/w".length))) } },
    );
    const result = await runWithClosed("stdout", ["report", "-w", "5", "--after", "7d"]);
    expect(result).toEqual({ code: EXIT.ok, stderr: "" });
    // The list, and a describe or two while the first row's EPIPE arrives: not all 60.
    expect(server.requests.length).toBeLessThanOrEqual(4);
  });

  test("watch: stops polling at the change that found the reader gone", async () => {
    let polls = 0;
    // The run moves at every poll, so that each poll writes a change.
    server.handle((request) =>
      request.pathname === "/workflow"
        ? { body: { workflows: [{ workflow: run(1, ++polls % 2 ? "SUBMITTED" : "RUNNING") }] } }
        : { status: 404, body: {} },
    );
    const result = await runWithClosed("stdout", ["watch", "-w", "5", "--poll-interval", "5ms"]);
    expect(result).toEqual({ code: EXIT.ok, stderr: "" });
    expect(polls).toBeLessThanOrEqual(3);
  });
});

describe("input files: regular files only, bounded, within --timeout", () => {
  const launchArgs = ["launch", "https://github.com/nf-core/rnaseq", "-w", "5", "--timeout", "5s"];

  test.each(["--params-file", "--config", "--pre-run", "--post-run"])(
    "%s naming a FIFO nobody writes to: refused at once with exit 2, nothing sent",
    async (flag) => {
      const fifo = path.join(dir, `fifo${flag}`);
      await execFileAsync("mkfifo", [fifo]);
      const result = await runCli(cli.main, [...launchArgs, flag, fifo], {
        env: env(),
        limitMs: 20_000,
      });
      expect(result).toMatchObject({ code: EXIT.usage, stdout: "" });
      expect(result.stderr).toBe(
        `seqera-api: ${flag} ${fifo} is not a regular file (a FIFO): give the path of a file.\n`,
      );
      expect(server.requests).toEqual([]);
    },
  );

  test("--config /dev/zero: refused at once with exit 2, nothing read", async () => {
    const result = await runCli(cli.main, [...launchArgs, "--config", "/dev/zero"], {
      env: env(),
      limitMs: 20_000,
    });
    expect(result).toMatchObject({ code: EXIT.usage, stdout: "" });
    expect(result.stderr).toBe(
      "seqera-api: --config /dev/zero is not a regular file (a character device): give the path of a file.\n",
    );
    expect(server.requests).toEqual([]);
  });

  test("a --params-file past 16 MiB: refused with exit 2 before it is read", async () => {
    const big = path.join(dir, "big.yaml");
    await truncate(big, 16 * 1024 * 1024 + 1).catch(async () => {
      await writeFile(big, "");
      await truncate(big, 16 * 1024 * 1024 + 1);
    });
    const result = await runCli(cli.main, [...launchArgs, "--params-file", big], { env: env() });
    expect(result).toMatchObject({ code: EXIT.usage, stdout: "" });
    expect(result.stderr).toBe(
      `seqera-api: --params-file ${big} is 16777217 bytes, more than the 16777216 (16 MiB) an input file may have.\n`,
    );
    expect(server.requests).toEqual([]);
  });
});

test("datasets add against an endpoint nothing listens on: the failed request named once", async () => {
  const file = path.join(dir, "samples.csv");
  await writeFile(file, "sample,fastq\ns1,s3://bucket/s1.fq\n");
  const port = await freePort();
  const result = await runCli(cli.main, ["datasets", "add", "samples", file, "-w", "acme/ws"], {
    env: { ...env(), TOWER_API_ENDPOINT: `http://127.0.0.1:${port}` },
  });
  expect(result).toMatchObject({ code: EXIT.failure, stdout: "" });
  // The endpoint named in the CLI's terms; the retries said without the library's options.
  expect(result.stderr).toMatch(
    new RegExp(
      `^seqera-api datasets: GET /user-info failed: no response from http://127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\); check the endpoint \\(--url or TOWER_API_ENDPOINT\\) and the network \\(UserInfo: gave up after 5 attempts in \\d+ ms\\)\n$`,
    ),
  );
});
