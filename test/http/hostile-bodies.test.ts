/**
 * Bodies that break off after their status, stall, or do not end: typed errors saying so,
 * retried like connection errors where the method allows, memory bounded.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import {
  BodyReadError,
  ResponseTooLargeError,
  ServerError,
  TimeoutError,
  type SeqeraApiError,
} from "../../src/index.js";
import { clientFor } from "../helpers/client.js";
import {
  endlessBody,
  gzipBomb,
  resetMidBody,
  shortBody,
  useTestServer,
} from "../helpers/server.js";

const server = await useTestServer();

async function failure(call: Promise<unknown>): Promise<SeqeraApiError> {
  const outcome = await call.then(
    (data) => ({ data }),
    (error: unknown) => ({ error }),
  );
  if (!("error" in outcome)) throw new Error(`expected a failure, got ${String(outcome.data)}`);
  return outcome.error as SeqeraApiError;
}

const describeWorkflow = (client = clientFor(server), init = {}) =>
  client.GET("/workflow/{workflowId}", { params: { path: { workflowId: "w1" } }, ...init });
const retrying = () => clientFor(server, { retry: { baseDelayMs: 1 } });
const OK = { body: { workflow: { id: "w1", status: "RUNNING" } } };

describe("a body that breaks off after its status", () => {
  test.each([
    ["reset mid-body", resetMidBody],
    ["shorter than its Content-Length", shortBody],
  ])("%s: BodyReadError saying the status arrived", async (_case, hostile) => {
    server.reply(hostile());
    const error = await failure(describeWorkflow());
    expect(error).toBeInstanceOf(BodyReadError);
    expect(error.status).toBe(200);
    expect(error.message).toMatch(
      /^GET \/workflow\/\{workflowId\} answered 200, then the body broke off before it was complete/,
    );
    expect(error.message).not.toMatch(/no response/);
  });

  test.each([
    ["reset mid-body", resetMidBody],
    ["shorter than its Content-Length", shortBody],
  ])("%s: a GET is retried and succeeds", async (_case, hostile) => {
    server.reply(hostile(), OK);
    const data = await describeWorkflow(retrying());
    expect(data.workflow?.status).toBe("RUNNING");
    expect(server.requests).toHaveLength(2);
  });

  test("a POST whose answer broke off is not sent again (it may have been done)", async () => {
    server.reply(resetMidBody(), OK);
    const error = await failure(
      retrying().POST("/workflow/launch", {
        body: { launch: { computeEnvId: "ce", pipeline: "p", workDir: "w" } },
      }),
    );
    expect(error).toBeInstanceOf(BodyReadError);
    expect(server.requests).toHaveLength(1);
  });

  test("a POST that opted in is retried after its answer broke off", async () => {
    server.reply(resetMidBody(), { body: { workflowId: "w9" } });
    await expect(
      retrying().POST("/workflow/launch", {
        body: { launch: { computeEnvId: "ce", pipeline: "p", workDir: "w" } },
        retryUnsafe: true,
      }),
    ).resolves.toEqual({ workflowId: "w9" });
    expect(server.requests).toHaveLength(2);
  });

  test("a stalled body hits the attempt's timeout: TimeoutError with the status that arrived", async () => {
    server.reply({
      bodyDelayMs: 5_000,
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    const error = await failure(describeWorkflow(clientFor(server, { timeoutMs: 150 })));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.status).toBe(200);
    expect(error.message).toBe(
      "GET /workflow/{workflowId} answered 200, then its body did not arrive in full within the 150 ms timeout",
    );
  });

  test("a stalled body is retried for a GET", async () => {
    server.reply(
      { bodyDelayMs: 5_000, headers: { "content-type": "application/json" }, body: "{}" },
      OK,
    );
    const client = clientFor(server, { timeoutMs: 150, retry: { baseDelayMs: 1 } });
    await expect(describeWorkflow(client)).resolves.toEqual(OK.body);
    expect(server.requests).toHaveLength(2);
  });
});

describe("a body arriving a byte at a time", () => {
  test("a 2 MB JSON answer in 1-byte chunks: read whole, the process's peak RSS grows under 100 MB", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        "--import",
        "tsx",
        fileURLToPath(new URL("../fixtures/json-trickle-client.ts", import.meta.url)),
      ],
      { cwd: fileURLToPath(new URL("../..", import.meta.url)) },
    );
    const { grewMb, versionLength } = JSON.parse(stdout);
    expect(versionLength).toBe(2 * 1024 * 1024);
    // Was 503 MB: every 1-byte chunk kept as its own Uint8Array until the end.
    expect(grewMb).toBeLessThan(100);
  });
});

describe("size caps", () => {
  test("a gzip bomb (1 MiB inflating to 1 GiB) stops at the cap with ResponseTooLargeError, memory bounded", async () => {
    const bomb = gzipBomb(1024, 1024 * 1024);
    expect(bomb.length).toBeLessThan(1.1 * 1024 * 1024);
    server.reply({
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
      body: bomb,
    });
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const error = await failure(describeWorkflow()).finally(() => clearInterval(sampler));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as ResponseTooLargeError).maxResponseBytes).toBe(64 * 1024 * 1024);
    expect(error.message).toMatch(
      /answered 200 with a body over the 67108864-byte cap \(maxResponseBytes\).*parseAs: "stream"/,
    );
    // The 64 MiB read, plus buffers; before the cap, the whole gibibyte was held (2.1 GB RSS).
    expect(peak - before).toBeLessThan(400 * 1024 * 1024);
  });

  test("the cap is set per client and per call, and a stream is not capped", async () => {
    const text = "x".repeat(10_000);
    const download = (client = clientFor(server), init = {}) =>
      client.GET("/workflow/{workflowId}/download", {
        params: { path: { workflowId: "w1" } },
        ...init,
      });
    const page = { headers: { "content-type": "text/plain" }, body: text };
    server.reply(page, page, page, page);
    await expect(download(clientFor(server, { maxResponseBytes: 9_999 }))).rejects.toBeInstanceOf(
      ResponseTooLargeError,
    );
    await expect(download(clientFor(server, { maxResponseBytes: 10_000 }))).resolves.toBe(text);
    await expect(download(undefined, { maxResponseBytes: 100 })).rejects.toThrow(
      /over the 100-byte cap/,
    );
    const stream = await download(clientFor(server, { maxResponseBytes: 100 }), {
      parseAs: "stream",
    });
    expect(await new Response(stream).text()).toBe(text);
  });

  test("a 100 MB error body: the error keeps its first 64 KiB, and the rest is not read", async () => {
    let written = 0;
    server.reply(endlessBody(500, 100 * 1024 * 1024, "e", (n) => (written = n)));
    const error = await failure(describeWorkflow());
    expect(error).toBeInstanceOf(ServerError);
    expect(error.status).toBe(500);
    expect(typeof error.body).toBe("string");
    expect((error.body as string).length).toBe(64 * 1024);
    expect(error.message).toMatch(/^e{300}…$/);
    await vi_waitFor(() => written > 0);
    expect(written).toBeLessThan(100 * 1024 * 1024);
  });

  test("an error body cut at the cap that was JSON stays text, never a parse error", async () => {
    const big = JSON.stringify({ message: "m".repeat(100_000) });
    server.reply({ status: 400, headers: { "content-type": "application/json" }, body: big });
    const error = await failure(describeWorkflow());
    expect(error.body).toBe(big.slice(0, 64 * 1024));
  });
});

async function vi_waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
}
