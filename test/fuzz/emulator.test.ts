/**
 * The emulator: any request (method, target, headers, body bytes, sent raw) is answered 2xx or
 * 4xx, never 5xx or a dropped connection, and the emulator keeps answering and keeps at most its
 * request log's limit of requests; any seed document is accepted or refused with a one-line
 * message.
 */
import { connect } from "node:net";
import fc from "fast-check";
import { afterAll, describe, expect, test } from "vitest";
import { operations } from "../../generated/operations.js";
import { startEmulator } from "../../src/testing/index.js";
import { runs, timeoutFor } from "./settings.js";

const emulator = await startEmulator({
  rateLimit: false,
  requestLogLimit: 50,
  seed: {
    workspaces: [{ org: "acme", name: "genomics", id: 42 }],
    computeEnvs: [{ name: "aws", workspaceId: 42, primary: true }],
  },
});
afterAll(() => emulator.close());
const { port } = new URL(emulator.url);

/** Sends raw bytes; resolves to the status of the answer, or undefined when none came. */
function send(bytes: Buffer): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const head = Buffer.concat(chunks).toString("latin1");
      const status = /^HTTP\/1\.1 (\d{3}) /.exec(head)?.[1];
      resolve(status === undefined ? undefined : Number(status));
    });
    socket.end(bytes);
  });
}

const anyText = fc.string({ unit: "binary", maxLength: 30 });
const segment = fc.oneof(
  fc.constantFrom("42", "1", "0", "-1", "99999999999999999999", "%2e%2e", "..", "acme"),
  anyText.map(encodeURIComponent),
  fc.string({ maxLength: 10 }),
);
const target = fc.oneof(
  fc
    .tuple(fc.constantFrom(...Object.values(operations).map((o) => o.path)), fc.array(segment))
    .map(([path, values]) => {
      let i = 0;
      return path.replace(/\{[^}]+\}/g, () => values[i++] ?? "x");
    }),
  fc.array(segment, { maxLength: 4 }).map((parts) => `/${parts.join("/")}`),
  fc.constantFrom("*", "http://other/x", "/%", "//", "/service-info?%zz"),
);
const query = fc.oneof(
  fc.constant(""),
  fc
    .array(
      fc.tuple(fc.constantFrom("workspaceId", "max", "offset", "search", "attributes"), segment),
    )
    .map((pairs) => `?${pairs.map(([k, v]) => `${k}=${v}`).join("&")}`),
);
const headers = fc.array(
  fc.tuple(
    fc.constantFrom("Accept-Version", "Content-Type", "Accept", "X-Any", "Content-Encoding"),
    fc.oneof(
      fc.constantFrom("1", "2", "application/json", "multipart/form-data; boundary=x", "gzip"),
      fc.string({ maxLength: 20 }).filter((v) => !/[\r\n]/.test(v)),
    ),
  ),
  { maxLength: 3 },
);
const body = fc.oneof(
  fc.constant(Buffer.alloc(0)),
  fc.jsonValue({ maxDepth: 4 }).map((v) => Buffer.from(JSON.stringify(v) ?? "")),
  fc
    .record({
      launch: fc.record({ pipeline: fc.string(), computeEnvId: fc.string() }, { requiredKeys: [] }),
    })
    .map((v) => Buffer.from(JSON.stringify(v))),
  fc.uint8Array({ maxLength: 100 }).map((b) => Buffer.from(b)),
);
const requests = fc.record({
  method: fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "BREW"),
  target,
  query,
  authorized: fc.boolean(),
  headers,
  body,
});

describe("the emulator", () => {
  test(
    "any request is answered 2xx or 4xx, and the emulator stays up and bounded",
    async () => {
      await fc.assert(
        fc.asyncProperty(requests, async (request) => {
          const head = [
            `${request.method} ${request.target}${request.query} HTTP/1.1`,
            "Host: 127.0.0.1",
            ...(request.authorized ? [`Authorization: Bearer ${emulator.token}`] : []),
            ...request.headers.map(([name, value]) => `${name}: ${value}`),
            `Content-Length: ${request.body.length}`,
            "Connection: close",
            "",
            "",
          ].join("\r\n");
          const status = await send(Buffer.concat([Buffer.from(head, "utf8"), request.body]));
          expect(status).toBeDefined();
          expect(status! < 500 && status! >= 200 && !(status! >= 300 && status! < 400)).toBe(true);
          const alive = await fetch(`${emulator.url}/service-info`);
          expect(alive.status).toBe(200);
          expect(emulator.requests.length).toBeLessThanOrEqual(50);
        }),
        runs(150),
      );
    },
    timeoutFor(150, 500),
  );

  test(
    "any seed is accepted or refused with a one-line message",
    async () => {
      const seed = fc.record(
        {
          workspaces: fc.array(
            fc.record(
              { org: fc.string(), name: fc.string(), id: fc.oneof(fc.integer(), fc.string()) },
              { requiredKeys: [] },
            ),
            { maxLength: 2 },
          ),
          computeEnvs: fc.array(
            fc.record(
              {
                name: fc.string(),
                workspaceId: fc.oneof(fc.constant(42), fc.integer(), fc.string()),
                primary: fc.boolean(),
                id: fc.string(),
                status: fc.string(),
              },
              { requiredKeys: [] },
            ),
            { maxLength: 2 },
          ),
          runs: fc.array(
            fc.record(
              {
                id: fc.string(),
                workspaceId: fc.oneof(fc.constant(42), fc.integer()),
                status: fc.oneof(fc.constantFrom("FAILED", "SUCCEEDED", "RUNNING"), fc.string()),
                submit: fc.oneof(fc.constant("2024-05-02T01:00:00Z"), fc.string()),
                tasks: fc.array(fc.object({ maxDepth: 1 }), { maxLength: 2 }),
                launch: fc.object({ maxDepth: 1 }),
              },
              { requiredKeys: [] },
            ),
            { maxLength: 2 },
          ),
          pipelines: fc.array(fc.object({ maxDepth: 2 }), { maxLength: 2 }),
          extra: fc.anything(),
        },
        { requiredKeys: [] },
      );
      await fc.assert(
        fc.asyncProperty(fc.oneof(seed, fc.anything()), async (document) => {
          let started;
          try {
            started = await startEmulator({ seed: document as never, rateLimit: false });
          } catch (error) {
            expect(error).toBeInstanceOf(Error);
            expect((error as Error).message).not.toMatch(/\n/);
            expect((error as Error).message).not.toMatch(
              /^Cannot read properties|is not a function|is not iterable/,
            );
            return;
          }
          await started.close();
        }),
        // Found by this property (seed 20260126): a null seed threw "Cannot read properties of null".
        runs(100, [[null], [[]], [{ runs: {} }], [{ user: 1 }]]),
      );
    },
    timeoutFor(100, 300),
  );
});
