/**
 * HTTPS_PROXY / HTTP_PROXY / NO_PROXY, as Node tools read them: calls go through a loopback
 * CONNECT proxy that records what passed through it, the token stays inside the tunnel's TLS,
 * NO_PROXY and a user's own fetch bypass it, a refusing proxy is a ConnectionError.
 */
import { execFile } from "node:child_process";
import { once } from "node:events";
import { createServer as createHttpServer, type Server } from "node:http";
import { connect, createServer as createTcpServer, type AddressInfo, type Socket } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { inspect, promisify } from "node:util";
import { afterAll, beforeEach, describe, expect, test } from "vitest";
import { ConfigurationError, ConnectionError, TimeoutError } from "../../src/index.js";
import { freePort } from "../helpers/ports.js";
import { clientFor, TOKEN } from "../helpers/client.js";
import { useTestServer } from "../helpers/server.js";
import { startTlsServer, TLS_ANSWER, TLS_CERT } from "../helpers/tls-server.js";
import { startUploadSink } from "../helpers/upload-through-proxy.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "../..");

interface Tunnel {
  /** "host:port" as asked in the CONNECT line. */
  target: string;
  proxyAuthorization: string | undefined;
  /** Every byte the client sent through the tunnel. */
  bytes: Buffer[];
}

/**
 * A CONNECT proxy on 127.0.0.1: each tunnel goes to `route(target)` (a loopback port), or is
 * refused with `refuse` when set; it records the tunnels and what went through them.
 */
async function startProxy(route: (target: string) => number) {
  const tunnels: Tunnel[] = [];
  const sockets = new Set<Socket>();
  let refuse: number | undefined;
  const server: Server = createHttpServer((_req, res) => res.writeHead(405).end());
  server.on("connect", (req, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on("error", () => {});
    const tunnel: Tunnel = {
      target: req.url ?? "",
      proxyAuthorization: req.headers["proxy-authorization"],
      bytes: [head],
    };
    tunnels.push(tunnel);
    if (refuse !== undefined) {
      client.end(`HTTP/1.1 ${refuse} Refused\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    const upstream = connect(route(tunnel.target), "127.0.0.1", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      client.on("data", (chunk: Buffer) => tunnel.bytes.push(chunk));
      client.pipe(upstream).pipe(client);
    });
    sockets.add(upstream);
    upstream.on("error", () => client.destroy());
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
    reset: () => {
      tunnels.length = 0;
      refuse = undefined;
    },
    url: `http://127.0.0.1:${port}`,
    port,
    tunnels,
    refuseWith: (status: number) => (refuse = status),
  };
}

const api = await useTestServer();
const apiPort = Number(new URL(api.url).port);
const proxy = await startProxy(() => apiPort);
afterAll(proxy.close);
beforeEach(proxy.reset);
/**
 * The API under a name only the proxy resolves (it tunnels every target to the test server): a
 * loopback one would not go through the proxy.
 */
const REMOTE = "http://seqera.test";
const serviceInfo = (env: Record<string, string>, options = {}) =>
  clientFor(api, { env, baseUrl: REMOTE, allowInsecureHttp: true, ...options }).GET(
    "/service-info",
  );
const failureOf = (call: Promise<unknown>) =>
  call.then(
    () => undefined,
    (e: unknown) => e as Error,
  );

describe("an http:// API through HTTP_PROXY", () => {
  test("goes through the proxy's tunnel to the API", async () => {
    api.reply({ body: { serviceInfo: { version: "1" } } });
    const data = await serviceInfo({ HTTP_PROXY: proxy.url });
    expect(data.serviceInfo?.version).toBe("1");
    expect(proxy.tunnels.map((t) => t.target)).toEqual(["seqera.test:80"]);
    expect(api.requests.map((r) => r.url)).toEqual(["/service-info"]);
  });

  test("a loopback API goes straight, as with curl: the proxy never sees its token", async () => {
    api.reply({ body: { serviceInfo: { version: "1" } } });
    const data = await clientFor(api, { env: { HTTP_PROXY: proxy.url } }).GET("/service-info");
    expect(data.serviceInfo?.version).toBe("1");
    expect(proxy.tunnels).toEqual([]);
    expect(api.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${TOKEN}`]);
  });

  test("lower-case http_proxy too, with credentials sent as Proxy-Authorization", async () => {
    const withCredentials = proxy.url.replace("//", "//alice:s3cret@");
    await serviceInfo({ http_proxy: withCredentials });
    expect(proxy.tunnels.map((t) => t.proxyAuthorization)).toEqual([
      `Basic ${Buffer.from("alice:s3cret").toString("base64")}`,
    ]);
  });

  test.each(["seqera.test", "seqera.test:80", "example.com, .test", "*"])(
    "NO_PROXY=%s: straight to the API (which only the proxy could reach)",
    async (noProxy) => {
      const error = await failureOf(serviceInfo({ HTTP_PROXY: proxy.url, NO_PROXY: noProxy }));
      expect(error).toBeInstanceOf(ConnectionError);
      expect(error?.message).toMatch(
        /^GET \/service-info failed: no response from http:\/\/seqera\.test \(/,
      );
      expect(proxy.tunnels).toEqual([]);
    },
  );

  test("a fetch option overrides the proxy", async () => {
    const seen: string[] = [];
    const data = await serviceInfo(
      { HTTP_PROXY: proxy.url },
      {
        fetch: async (request: Request) => {
          seen.push(request.url);
          return Response.json({ serviceInfo: { version: "own" } });
        },
      },
    );
    expect(data.serviceInfo?.version).toBe("own");
    expect(seen).toEqual([`${REMOTE}/service-info`]);
    expect(proxy.tunnels).toEqual([]);
  });

  test("no proxy variable in the client's env: the proxy is not used", async () => {
    const error = await failureOf(serviceInfo({}));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(proxy.tunnels).toEqual([]);
  });

  test("a proxy refusing the tunnel (407): ConnectionError saying the proxy, its credentials not shown", async () => {
    proxy.refuseWith(407);
    const error = await failureOf(
      serviceInfo({ HTTP_PROXY: proxy.url.replace("//", "//alice:s3cret@") }),
    );
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error?.message).toBe(
      `GET /service-info failed: no response from http://seqera.test through the proxy ${proxy.url} (the proxy answered 407)`,
    );
    expect(inspect(error, { depth: 10 })).not.toContain("s3cret");
    expect(api.requests).toEqual([]);
  });

  test("a proxy that is down: ConnectionError saying the proxy", async () => {
    const down = `http://127.0.0.1:${await freePort()}`;
    const error = await failureOf(serviceInfo({ HTTP_PROXY: down }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error?.message).toBe(
      `GET /service-info failed: no response from http://seqera.test through the proxy ${down} (ECONNREFUSED)`,
    );
  });

  test("a proxy that never answers the CONNECT: TimeoutError saying the proxy", async () => {
    const silent = createTcpServer((socket) => socket.on("error", () => {}));
    silent.listen(0, "127.0.0.1");
    await once(silent, "listening");
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    try {
      const error = await failureOf(serviceInfo({ HTTP_PROXY: url }, { timeoutMs: 300 }));
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error?.message).toBe(
        `GET /service-info timed out after 300 ms through the proxy ${url}`,
      );
    } finally {
      silent.close();
    }
  });

  test.each([
    ["HTTPS_PROXY", "http://alice:pw-91f0@127.0.0.1:99999", "it does not parse as a URL"],
    ["HTTP_PROXY", "[::1", "it does not parse as a URL"],
    ["https_proxy", "proxy.example.com:3128", "it needs http:// or https:// before the host"],
  ])(
    "%s=%s: a ConfigurationError when the client is created, naming it, never its credentials",
    (name, value, what) => {
      let error: unknown;
      try {
        clientFor(api, { env: { [name]: value } });
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).toBe(
        `${name} is not a proxy URL (${what}): give it as http://host:port, with user:password@ before the host if the proxy needs them, or unset it.`,
      );
      expect(inspect(error, { depth: 10 })).not.toContain("pw-91f0");
    },
  );
});

describe("bodies through the proxy", () => {
  test("a JSON body and an upload reach the API as sent, streamed; a 307 sends the body again", async () => {
    const client = clientFor(api, {
      env: { HTTP_PROXY: proxy.url },
      baseUrl: REMOTE,
      allowInsecureHttp: true,
    });
    api.reply({ body: { id: 1, name: "x", value: "y", resource: true } });
    await client.POST("/labels", { body: { name: "x", value: "y", resource: true } });
    api.reply(
      { status: 307, headers: { location: `${REMOTE}/datasets/d1/upload?again=1` } },
      { body: { version: { version: 1 } } },
    );
    await client.POST("/datasets/{datasetId}/upload", {
      params: { path: { datasetId: "d1" } },
      body: { file: new Blob(["a,b\n1,2\n"]) },
    });
    const [json, upload, again] = api.requests;
    expect(JSON.parse(json!.body.toString())).toEqual({ name: "x", value: "y", resource: true });
    expect(json!.headers["content-type"]).toBe("application/json");
    for (const sent of [upload!, again!]) {
      const boundary = sent.headers["content-type"]!.match(
        /^multipart\/form-data; boundary=(.+)$/,
      )![1];
      expect(sent.body.toString()).toBe(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="file.csv"\r\n` +
          `Content-Type: text/csv\r\n\r\na,b\n1,2\n\r\n--${boundary}--\r\n`,
      );
      // Streamed: sent chunked, its length not known before it is read.
      expect(sent.headers["transfer-encoding"]).toBe("chunked");
      expect(sent.headers["content-length"]).toBeUndefined();
    }
    expect(again!.url).toBe("/datasets/d1/upload?again=1");
    // seqera.test resolves only through the proxy (its tunnels are kept alive for reuse).
    expect(new Set(proxy.tunnels.map((t) => t.target))).toEqual(new Set(["seqera.test:80"]));
  });

  test("a 128 MB upload through the proxy is streamed: the sender's peak RSS grows under 80 MB", async () => {
    const sink = await startUploadSink();
    try {
      // Loopback goes straight; seqera.test only through the proxy.
      const grewMb = await sink.upload("http://seqera.test", 128);
      expect(sink.tunnels).toEqual(["seqera.test:80"]);
      expect(sink.received()).toBeGreaterThan(128 * 1024 * 1024);
      // Some 45 MB whatever the size (undici loaded, buffers in flight); was 128 MB more than
      // that (fetch's clone of the request kept every byte sent). `npm run bench` has figures.
      expect(grewMb).toBeLessThan(80);
    } finally {
      sink.close();
    }
  });
});

describe("an https:// API through HTTPS_PROXY", () => {
  test("tunnels TLS to the name the proxy resolves; the token never shows in the tunnel", async () => {
    const secure = await startTlsServer();
    const tlsProxy = await startProxy(() => secure.port);
    try {
      // The CA is the process's (NODE_EXTRA_CA_CERTS), so the client runs in a child process.
      // seqera.test resolves nowhere: only the proxy can reach it.
      const script = `
        import { createSeqeraClient } from "./src/index.ts";
        const client = createSeqeraClient({ rateLimit: false, retry: false });
        const data = await client.GET("/service-info");
        console.log(JSON.stringify(data));`;
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ["--import", "tsx", "--input-type=module", "-e", script],
        {
          cwd: ROOT,
          timeout: 30_000,
          env: {
            PATH: process.env.PATH,
            NODE_EXTRA_CA_CERTS: TLS_CERT,
            TOWER_ACCESS_TOKEN: TOKEN,
            TOWER_API_ENDPOINT: "https://seqera.test/api",
            HTTPS_PROXY: tlsProxy.url,
          },
        },
      );
      expect(JSON.parse(stdout)).toEqual(TLS_ANSWER);
      expect(tlsProxy.tunnels.map((t) => t.target)).toEqual(["seqera.test:443"]);
      expect(secure.seen).toEqual([{ url: "/api/service-info", authorization: `Bearer ${TOKEN}` }]);
      const passed = Buffer.concat(tlsProxy.tunnels.flatMap((t) => t.bytes));
      expect(passed.length).toBeGreaterThan(100);
      expect(passed.includes(TOKEN)).toBe(false);
    } finally {
      tlsProxy.close();
      secure.close();
    }
  });
});
