import { execFile } from "node:child_process";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startEmulator, type Emulator } from "../../src/testing/index.js";
import { api } from "./http.js";

/**
 * Sends raw bytes and collects what comes back until the emulator closes the connection or
 * `idleMs` passes without data (keep-alive). Bounded: at most 5 s.
 */
function raw(emulator: Emulator, bytes: string | Buffer, idleMs = 300): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(emulator.port, "127.0.0.1");
    const chunks: Buffer[] = [];
    let idle: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(idle);
      clearTimeout(cap);
      socket.destroy();
      resolve(Buffer.concat(chunks).toString("latin1"));
    };
    const cap = setTimeout(done, 5_000);
    socket.on("data", (chunk) => {
      chunks.push(chunk);
      clearTimeout(idle);
      idle = setTimeout(done, idleMs);
    });
    socket.on("end", done);
    socket.on("close", done);
    socket.on("error", (error: NodeJS.ErrnoException) =>
      error.code === "ECONNRESET" || error.code === "EPIPE" ? done() : reject(error),
    );
    socket.write(bytes);
  });
}

function statusOf(answer: string): number | undefined {
  const match = /^HTTP\/1\.1 (\d{3}) /.exec(answer);
  return match ? Number(match[1]) : undefined;
}

let emulator: Emulator;
let auth: string;
beforeAll(async () => {
  emulator = await startEmulator({ rateLimit: false, maxBodyBytes: 1024 * 1024 });
  auth = `Authorization: Bearer ${emulator.token}\r\n`;
});
afterAll(() => emulator.close());

describe("malformed requests the HTTP parser accepts get a 4xx, never a crash", () => {
  const targets = [
    "//[",
    "/[",
    "http://h:99999/user-info",
    "http://[::1/user-info",
    "//",
    "*",
    "/%",
    "/%zz",
    "/workflow/%E0%A4%A",
    "/workflow/%00",
    "/user-info?%",
    "/user-info?workspaceId=%zz",
    "/workflow?workspaceId=1e400",
    "/workflow?max=-1&offset=NaN",
    "/workflow?max=99999999999999999999999",
    "/data-links/x/browse/%2F..%2F..%2Fetc",
    `/${"a".repeat(8000)}`,
    "/workflow/\u00e9\u00ff",
    "/user-info#fragment",
    "/user-info;jsessionid=1",
  ];
  for (const target of targets) {
    test(`GET ${JSON.stringify(target.slice(0, 40))}`, async () => {
      const answer = await raw(emulator, `GET ${target} HTTP/1.1\r\nHost: x\r\n${auth}\r\n`);
      const status = statusOf(answer);
      expect(status, answer.slice(0, 200)).toBeDefined();
      // Each is either refused (4xx) or, when it happens to name an operation, answered.
      expect(status! < 500, answer.slice(0, 200)).toBe(true);
    });
  }

  const requests: [string, string][] = [
    ["unknown method", `BREW /user-info HTTP/1.1\r\nHost: x\r\n${auth}\r\n`],
    ["PROPFIND", `PROPFIND /user-info HTTP/1.1\r\nHost: x\r\n${auth}\r\n`],
    ["OPTIONS *", `OPTIONS * HTTP/1.1\r\nHost: x\r\n${auth}\r\n`],
    ["HEAD", `HEAD /user-info HTTP/1.1\r\nHost: x\r\n${auth}\r\n`],
    ["HTTP/1.0 without Host", `GET /user-info HTTP/1.0\r\n${auth}\r\n`],
    ["two Authorization headers", `GET /user-info HTTP/1.1\r\nHost: x\r\n${auth}${auth}\r\n`],
    [
      "Authorization: Bearer",
      `GET /user-info HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer\r\n\r\n`,
    ],
    [
      "Latin-1 in the token",
      `GET /user-info HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \u00e9\u00ff\r\n\r\n`,
    ],
    [
      "empty Accept-Version",
      `GET /user-info HTTP/1.1\r\nHost: x\r\n${auth}Accept-Version:\r\n\r\n`,
    ],
    [
      "two Accept-Version headers",
      `GET /user-info HTTP/1.1\r\nHost: x\r\n${auth}Accept-Version: 9\r\nAccept-Version: 1\r\n\r\n`,
    ],
    [
      "JSON that is not JSON",
      `POST /labels HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 5\r\n\r\n{"a":`,
    ],
    [
      "invalid UTF-8 in JSON",
      `POST /labels HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 4\r\n\r\n"\xff\xfe"`,
    ],
    [
      "a JSON array for an object",
      `POST /labels HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 2\r\n\r\n[]`,
    ],
    [
      "a deeply nested JSON body",
      `POST /labels HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 20000\r\n\r\n${"[".repeat(10_000)}${"]".repeat(10_000)}`,
    ],
    [
      "multipart without a boundary",
      `POST /datasets/x/upload HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: multipart/form-data\r\nContent-Length: 3\r\n\r\nabc`,
    ],
    [
      "a content type with odd parameters",
      `POST /labels HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json; charset=ebcdic; ;;=\r\nContent-Length: 2\r\n\r\n{}`,
    ],
    [
      "chunked body with a bad chunk size",
      `POST /labels HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
    ],
    [
      "a body shorter than announced",
      `POST /labels HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 50\r\n\r\n{}`,
    ],
  ];
  for (const [name, bytes] of requests) {
    test(name, async () => {
      const answer = await raw(emulator, bytes);
      const status = statusOf(answer);
      // The parser may close the connection without a word (a body shorter than announced).
      if (status !== undefined) expect(status < 500, answer.slice(0, 200)).toBe(true);
    });
  }

  test("after all that the emulator still answers", async () => {
    expect((await api(emulator, "/user-info")).status).toBe(200);
    const recorded = emulator.requests.find((r) => r.path === "//[");
    expect(recorded?.status).toBe(400);
  });

  test("random bytes in the request target", async () => {
    // A fixed seed: the same bytes each run, so a failure can be replayed.
    let seed = 19;
    const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
    for (let i = 0; i < 200; i++) {
      const target = Array.from({ length: 1 + (next() % 12) }, () =>
        String.fromCharCode(0x21 + (next() % 0x5e)),
      ).join("");
      const answer = await raw(
        emulator,
        `GET /${target} HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`,
      );
      const status = statusOf(answer);
      if (status !== undefined)
        expect(status < 500, `/${target}: ${answer.slice(0, 120)}`).toBe(true);
    }
    expect((await api(emulator, "/user-info")).status).toBe(200);
  });
});

describe("bodies are refused before they are read", () => {
  test("an unauthenticated 200 MB POST is answered 403 after its headers, before its body is read", async () => {
    const answer = await raw(
      emulator,
      `POST /labels HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200000000\r\n\r\n{`,
    );
    expect(statusOf(answer)).toBe(403);
    expect(answer).toMatch(/connection: close/i);
  });

  test("a client still sending its refused body receives the 403 all the same", async () => {
    const body = Buffer.alloc(16 * 1024 * 1024, 32);
    const answer = await raw(
      emulator,
      Buffer.concat([
        Buffer.from(
          `POST /labels HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
        ),
        body,
      ]),
    );
    expect(statusOf(answer)).toBe(403);
  });

  test("a client that reads only after sending its whole 200 MB body gets the 403, not EPIPE", async () => {
    // As Python's requests does: the answer is read once the body is sent.
    const size = 200 * 1024 * 1024;
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(emulator.port, "127.0.0.1");
      socket.pause();
      socket.on("error", (error: NodeJS.ErrnoException) => resolve(`error ${error.code}`));
      socket.write(
        `POST /labels HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`,
      );
      socket.write(Buffer.alloc(size, 32), (error) => {
        if (error) return;
        const chunks: Buffer[] = [];
        socket.on("data", (chunk) => chunks.push(chunk));
        socket.on("end", () => resolve(Buffer.concat(chunks).toString("latin1")));
        socket.resume();
      });
    });
    expect(statusOf(answer), answer).toBe(403);
    expect(answer).toMatch(/connection: close/i);
  });

  test("a body announced over maxBodyBytes is answered 413 with the cap", async () => {
    const answer = await raw(
      emulator,
      `POST /labels HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 2000000\r\n\r\n{`,
    );
    expect(statusOf(answer)).toBe(413);
    expect(answer).toContain("Request body larger than 1048576 bytes");
  });

  test("a chunked body that grows over maxBodyBytes is cut off with a 413", async () => {
    const chunk = "x".repeat(64 * 1024);
    const chunks = Array.from({ length: 20 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    const answer = await raw(
      emulator,
      `POST /labels HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunks.join("")}0\r\n\r\n`,
    );
    expect(statusOf(answer)).toBe(413);
  });
});

describe("memory per request is bounded", () => {
  test("the request log keeps the latest requestLogLimit requests; 0 keeps none", async () => {
    const small = await startEmulator({ rateLimit: false, requestLogLimit: 5 });
    const none = await startEmulator({ rateLimit: false, requestLogLimit: 0 });
    try {
      for (let i = 0; i < 12; i++) {
        await api(small, `/workflow?max=${i + 1}`);
        await api(none, "/user-info");
      }
      expect(small.requests.map((r) => r.search)).toEqual(
        [8, 9, 10, 11, 12].map((n) => `max=${n}`),
      );
      expect(none.requests).toEqual([]);
    } finally {
      await Promise.all([small.close(), none.close()]);
    }
  });

  test("the request log keeps the bodies of at most requestLogBytes, the oldest requests dropped", async () => {
    const small = await startEmulator({
      rateLimit: false,
      requestLogBytes: 10 * 1024 * 1024,
      seed: { workspaces: [{ org: "acme", name: "prod", id: 42 }] },
    });
    try {
      const paramsText = "x".repeat(4 * 1024 * 1024);
      for (let i = 0; i < 8; i++) {
        const response = await fetch(`${small.url}/pipelines?workspaceId=42`, {
          method: "POST",
          headers: { authorization: `Bearer ${small.token}`, "content-type": "application/json" },
          body: JSON.stringify({ name: `p${i}`, launch: { pipeline: "https://x/y", paramsText } }),
        });
        expect(response.status).toBe(200);
        await api(small, "/user-info");
      }
      // Two 4 MB bodies fit in 10 MB; the requests without a body weigh nothing.
      expect(
        small.requests.map((r) => (r.body as { name?: string } | undefined)?.name ?? r.path),
      ).toEqual(["/user-info", "p6", "/user-info", "p7", "/user-info"]);
    } finally {
      await small.close();
    }
  });

  test("60 updates with 4 MB params each: the default log keeps the heap under 160 MB", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        "--expose-gc",
        "--import",
        "tsx",
        fileURLToPath(new URL("../fixtures/emulator-log-memory.ts", import.meta.url)),
      ],
      { cwd: fileURLToPath(new URL("../..", import.meta.url)), maxBuffer: 1024 * 1024 },
    );
    // 262 MB with every body kept by the request log (502 MB for 120 updates); now 82 MB.
    expect(JSON.parse(stdout).heapMb).toBeLessThan(160);
  });

  test("an uploaded file is recorded by name, type and size, not kept with its content", async () => {
    const dataset = emulator.state.datasets.add({ name: "uploads" });
    const form = new FormData();
    form.set("file", new File(["a,b\n1,2\n"], "samples.csv", { type: "text/csv" }));
    const response = await fetch(`${emulator.url}/datasets/${dataset.id}/upload`, {
      method: "POST",
      headers: { authorization: `Bearer ${emulator.token}` },
      body: form,
    });
    expect(response.status).toBe(200);
    const recorded = emulator.requests.filter((r) => r.path.endsWith("/upload")).at(-1);
    expect(recorded?.body).toEqual({
      file: { fileName: "samples.csv", type: "text/csv", size: 8 },
    });
  });
});
