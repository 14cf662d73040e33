/**
 * The default transport (http/node-fetch.ts): fetch's behaviour over node:http, what it tells the
 * rate limiter, and when it steps aside for fetch. The client's tests (hostile bodies, redirects,
 * retries, the limiter) run through it as well; these are the transport's own cases.
 */
import { execFile } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { AsyncLocalStorage } from "node:async_hooks";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { REQUEST_CREATED, REQUEST_SENT } from "../../src/core/request-events.js";
import { defaultFetch } from "../../src/http/node-fetch.js";
import { BodyReadError, ConnectionError } from "../../src/index.js";
import { clientFor } from "../helpers/client.js";
import { resetMidBody, useTestServer } from "../helpers/server.js";
import { startTlsServer, TLS_ANSWER, TLS_CERT, type TlsServer } from "../helpers/tls-server.js";

const server = await useTestServer();
const root = fileURLToPath(new URL("../..", import.meta.url));

afterEach(() => {
  vi.unstubAllGlobals();
});

/** What a subscriber of `name` sees during `run`. */
async function seen<T>(names: string[], run: () => Promise<T>): Promise<unknown[][]> {
  const messages = names.map(() => [] as unknown[]);
  const listeners = names.map((_, at) => (message: unknown) => messages[at]!.push(message));
  names.forEach((name, at) => subscribe(name, listeners[at]!));
  try {
    await run();
  } finally {
    names.forEach((name, at) => unsubscribe(name, listeners[at]!));
  }
  return messages;
}

describe("as fetch", () => {
  test("status, headers, body and url of the answer; fetch's default headers, and the request's own over them", async () => {
    server.reply({ status: 201, headers: { "x-one": "1", "set-cookie": "a=b" }, body: { ok: 1 } });
    const response = await defaultFetch(
      new Request(`${server.url}/things?x=1`, {
        method: "POST",
        headers: { authorization: "Bearer t", accept: "application/json" },
        body: '{"name":"ü"}',
      }),
    );
    expect(response.status).toBe(201);
    expect(response.headers.get("x-one")).toBe("1");
    expect(response.url).toBe(`${server.url}/things?x=1`);
    expect(await response.json()).toEqual({ ok: 1 });
    const [request] = server.requests;
    expect(request!.url).toBe("/things?x=1");
    expect(request!.body.toString()).toBe('{"name":"ü"}');
    expect(request!.headers).toMatchObject({
      authorization: "Bearer t",
      accept: "application/json",
      "user-agent": "node",
      "accept-encoding": "gzip, deflate",
      "content-length": String(Buffer.byteLength('{"name":"ü"}')),
      "content-type": "text/plain;charset=UTF-8",
    });
  });

  test("a POST without a body says content-length: 0; a GET says nothing of a body", async () => {
    server.reply({}, {});
    await defaultFetch(new Request(`${server.url}/a`, { method: "POST" }));
    await defaultFetch(new Request(`${server.url}/b`));
    expect(server.requests[0]!.headers["content-length"]).toBe("0");
    expect(server.requests[1]!.headers).not.toHaveProperty("content-length");
    expect(server.requests[1]!.headers).not.toHaveProperty("transfer-encoding");
  });

  test.each([
    ["gzip", gzipSync],
    ["deflate", deflateSync],
    ["br", brotliCompressSync],
  ])("a %s body is decoded as it is read", async (encoding, compress) => {
    const text = JSON.stringify({ items: "x".repeat(100_000) });
    server.reply({
      headers: { "content-type": "application/json", "content-encoding": encoding },
      body: compress(Buffer.from(text)),
    });
    const response = await defaultFetch(new Request(`${server.url}/z`));
    expect(await response.text()).toBe(text);
  });

  test("204 and HEAD answers have no body", async () => {
    server.reply({ status: 204 }, { headers: { "content-length": "10" } });
    expect((await defaultFetch(new Request(`${server.url}/a`))).body).toBeNull();
    const head = await defaultFetch(new Request(`${server.url}/b`, { method: "HEAD" }));
    expect(head.body).toBeNull();
  });

  test("redirects are answers, never followed", async () => {
    server.reply({ status: 302, headers: { location: "http://127.0.0.1:9/elsewhere" } });
    const response = await defaultFetch(new Request(`${server.url}/a`, { redirect: "manual" }));
    expect(response.status).toBe(302);
    expect(server.requests).toHaveLength(1);
  });

  test("sequential calls share one kept-alive connection", async () => {
    server.reply({}, {}, {});
    for (let i = 0; i < 3; i++) await (await defaultFetch(new Request(`${server.url}/k`))).text();
    const ports = new Set(server.requests.map((request) => request.remotePort));
    expect(ports.size).toBe(1);
  });
});

describe("failures as fetch's", () => {
  test("no server: TypeError('fetch failed') with the system's error as cause; through the client, a ConnectionError naming it", async () => {
    const error = await defaultFetch(new Request("http://127.0.0.1:9/x")).catch((e) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe("fetch failed");
    expect(error.cause.code).toBe("ECONNREFUSED");
    const failed = await clientFor({ url: "http://127.0.0.1:9" })
      .GET("/user-info")
      .catch((e) => e);
    expect(failed).toBeInstanceOf(ConnectionError);
    expect(failed.message).toMatch(/no response from http:\/\/127\.0\.0\.1:9 \(ECONNREFUSED\)/);
  });

  test("a reset mid-body errors the body with TypeError('terminated'); through the client, a BodyReadError", async () => {
    server.reply(resetMidBody(), resetMidBody());
    const response = await defaultFetch(new Request(`${server.url}/r`));
    expect(response.status).toBe(200);
    const error = await response.text().catch((e) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe("terminated");
    expect(error.cause.code).toBe("ECONNRESET");
    const failed = await clientFor(server)
      .GET("/workflow/{workflowId}", { params: { path: { workflowId: "w1" } } })
      .catch((e) => e);
    expect(failed).toBeInstanceOf(BodyReadError);
    expect(failed.message).toMatch(/answered 200, then the body broke off .*\(ECONNRESET\)/);
  });

  test("a status outside what a Response holds is no answer", async () => {
    server.reply({
      write: (res) => void res.socket!.end("HTTP/1.1 600 Odd\r\ncontent-length: 0\r\n\r\n"),
    });
    const error = await defaultFetch(new Request(`${server.url}/s`)).catch((e) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe("fetch failed");
    expect(error.cause).toBeInstanceOf(RangeError);
  });

  test("an abort before the answer rejects with the signal's reason, and the server sees the connection go", async () => {
    const silent = createServer(() => {}); // never answers
    const closed = new Promise((resolve) =>
      silent.on("connection", (socket) => socket.on("close", resolve)),
    );
    silent.listen(0, "127.0.0.1");
    await once(silent, "listening");
    const arrived = once(silent, "request");
    try {
      const controller = new AbortController();
      const { port } = silent.address() as AddressInfo;
      const pending = defaultFetch(new Request(`http://127.0.0.1:${port}/slow`), {
        signal: controller.signal,
      });
      await arrived;
      const reason = new Error("stop");
      controller.abort(reason);
      await expect(pending).rejects.toBe(reason);
      await closed;
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  test("an abort mid-body errors the body with the reason", async () => {
    server.reply({ headers: { "content-type": "text/plain" }, body: "x", bodyDelayMs: 5_000 });
    const controller = new AbortController();
    const response = await defaultFetch(new Request(`${server.url}/slow`), {
      signal: controller.signal,
    });
    const reason = new Error("stop");
    const reading = response.text();
    controller.abort(reason);
    await expect(reading).rejects.toBe(reason);
  });

  test("an aborted signal sends nothing", async () => {
    const reason = new Error("already");
    await expect(
      defaultFetch(new Request(`${server.url}/x`), { signal: AbortSignal.abort(reason) }),
    ).rejects.toBe(reason);
    expect(server.requests).toHaveLength(0);
  });
});

describe("what the rate limiter hears", () => {
  test("the request is created in the caller's async context, then sent, the same object on both channels", async () => {
    server.reply({});
    const context = new AsyncLocalStorage<string>();
    const contexts: (string | undefined)[] = [];
    subscribe(REQUEST_CREATED, record);
    function record() {
      contexts.push(context.getStore());
    }
    try {
      const [created, sent] = await seen([REQUEST_CREATED, REQUEST_SENT], () =>
        context.run("the call", async () =>
          (await defaultFetch(new Request(`${server.url}/e`))).text(),
        ),
      );
      expect(contexts).toEqual(["the call"]);
      expect(created).toHaveLength(1);
      expect(sent).toHaveLength(1);
      expect((sent![0] as { request: unknown }).request).toBe(
        (created![0] as { request: unknown }).request,
      );
      expect((sent![0] as { request: { path: string } }).request.path).toBe("/e");
    } finally {
      unsubscribe(REQUEST_CREATED, record);
    }
  });
});

describe("when fetch is used instead", () => {
  test("a globalThis.fetch put in place of Node's is called, per call, and the transport stays out", async () => {
    const stub = vi.fn(async () => Response.json({ stubbed: true }));
    vi.stubGlobal("fetch", stub);
    const client = clientFor(server);
    expect(await client.GET("/user-info")).toEqual({ stubbed: true });
    expect(stub).toHaveBeenCalledTimes(1);
    expect(server.requests).toHaveLength(0);
  });

  test("a multipart body goes through Node's fetch, which gives it its length", async () => {
    server.reply({});
    const form = new FormData();
    form.append("file", new Blob(["a,b\n1,2\n"], { type: "text/csv" }), "x.csv");
    const [undici, ours] = await seen(["undici:request:create", REQUEST_CREATED], async () =>
      (await defaultFetch(new Request(`${server.url}/u`, { method: "POST", body: form }))).text(),
    );
    expect(undici).toHaveLength(1);
    expect(ours).toHaveLength(0);
    expect(server.requests[0]!.headers["content-length"]).toMatch(/^\d+$/);
    expect(server.requests[0]!.body.toString()).toContain("a,b\n1,2\n");
  });
});

describe("https://", () => {
  let secure: TlsServer;
  beforeAll(async () => {
    secure = await startTlsServer();
  });
  afterAll(() => secure.close());

  test("to a server whose certificate this machine trusts (NODE_EXTRA_CA_CERTS): answered", async () => {
    // The CA is the process's, read at its start: the client runs in a child process.
    const script = `
      import { createSeqeraClient } from "./src/index.ts";
      const client = createSeqeraClient({ rateLimit: false, retry: false });
      console.log(JSON.stringify(await client.GET("/service-info")));`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        "--import",
        "./test/fixtures/resolve-seqera-test.mjs",
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        script,
      ],
      {
        cwd: root,
        timeout: 30_000,
        env: {
          PATH: process.env.PATH,
          NODE_EXTRA_CA_CERTS: TLS_CERT,
          TOWER_ACCESS_TOKEN: "tls-token",
          TOWER_API_ENDPOINT: `https://seqera.test:${secure.port}/api`,
        },
      },
    );
    expect(JSON.parse(stdout)).toEqual(TLS_ANSWER);
    expect(secure.seen).toEqual([{ url: "/api/service-info", authorization: "Bearer tls-token" }]);
  });

  test("to a server whose certificate it does not trust: a ConnectionError naming why, the request never sent", async () => {
    secure.seen.length = 0;
    const failed = await clientFor({ url: `https://127.0.0.1:${secure.port}` })
      .GET("/service-info")
      .catch((e) => e);
    expect(failed).toBeInstanceOf(ConnectionError);
    expect(failed.code).toBe("DEPTH_ZERO_SELF_SIGNED_CERT");
    expect(failed.message).toMatch(
      /no response from https:\/\/127\.0\.0\.1:\d+ \(DEPTH_ZERO_SELF_SIGNED_CERT\)/,
    );
    expect(failed.message).toMatch(
      /this machine does not trust the server's TLS certificate\. If the install uses a private certificate authority, set NODE_EXTRA_CA_CERTS to its certificate \(a PEM file\)/,
    );
    expect(secure.seen).toEqual([]);
  });
});

test("a kept-alive connection does not keep the process alive after its last call", async () => {
  const script = `
    import { createSeqeraClient } from "./src/index.ts";
    const client = createSeqeraClient({ token: "t", baseUrl: ${JSON.stringify(server.url)}, env: {} });
    await client.GET("/user-info");
    await new Promise((resolve) => setImmediate(resolve));
    process.stdout.write(JSON.stringify(process.getActiveResourcesInfo()));
  `;
  server.reply({ body: {} });
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "-e", script],
    { cwd: root, timeout: 20_000 },
  );
  expect(server.requests).toHaveLength(1);
  expect(server.requests[0]!.headers.connection).toBe("keep-alive");
  // What keeps the event loop alive: not the socket, which stays open for the next call.
  expect(JSON.parse(stdout)).not.toContain("TCPSocketWrap");
});
