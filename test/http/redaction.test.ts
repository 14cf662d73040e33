import { inspect } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { createSeqeraClient, type SeqeraApiError } from "../../src/index.js";
import { type LogEntry } from "../../src/http/log.js";
import { startServer, type TestServer } from "../helpers/server.js";
import { clientFor, TOKEN } from "../helpers/client.js";

let server: TestServer;
beforeAll(async () => {
  // A debugging proxy that reflects the request's Authorization header in every body.
  server = await startServer((request) => ({
    status: request.pathname === "/ok" ? 200 : Number(request.query.get("status") ?? 400),
    body: {
      message: `echo: ${request.headers.authorization} - Error ID: e1`,
      token: request.headers.authorization,
    },
  }));
});
afterAll(() => server.close());
afterEach(() => {
  vi.restoreAllMocks();
});

/** Every way a value might be printed or serialized. */
function renderings(value: unknown): string[] {
  return [
    JSON.stringify(value) ?? "",
    inspect(value),
    inspect(value, { showHidden: true, depth: Infinity, getters: true }),
    String(value),
    value instanceof Error ? `${value.stack}` : "",
  ];
}

function expectNoToken(value: unknown) {
  for (const text of renderings(value)) {
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(TOKEN.slice(0, 12));
  }
}

async function failure(call: Promise<unknown>) {
  return (await call.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: unknown) => error,
  )) as SeqeraApiError;
}

describe("the token is never exposed", () => {
  test("not by the client object", () => {
    const client = clientFor(server, { logger: () => {} });
    expectNoToken(client);
    expectNoToken(client.config);
    expectNoToken(Object.getOwnPropertyDescriptors(client));
  });

  test.each([400, 403, 404, 409, 429, 500])(
    "not by a %i error, even when the body echoes it",
    async (status) => {
      const error = await failure(
        clientFor(server).GET("/workflow/{workflowId}", {
          params: { path: { workflowId: "w1" }, query: { status } as never },
        }),
      );
      expect(error.status).toBe(status);
      expect(JSON.stringify(error.body)).toContain("[REDACTED]");
      expectNoToken(error);
      for (const key of Object.getOwnPropertyNames(error)) {
        expectNoToken((error as unknown as Record<string, unknown>)[key]);
      }
    },
  );

  test("not when the echo escapes the token's slashes in JSON (\\/)", async () => {
    // Base64 tokens may hold "/"; some JSON encoders (PHP's, for one) write it as "\/".
    const slashed = "eyJ0aWQiOiA5OTl9.c2Vj/cmV0+LXRva2Vu/LXZhbHVl";
    const escaping = await startServer((request) => ({
      status: 400,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message: `echo: ${request.headers.authorization}` }).replaceAll(
        "/",
        "\\/",
      ),
    }));
    try {
      const error = await failure(clientFor(escaping, { token: slashed }).GET("/service-info"));
      expect(error.message).toContain("[REDACTED]");
      for (const text of [...renderings(error), ...renderings(error.body)]) {
        expect(text).not.toContain(slashed);
      }
    } finally {
      await escaping.close();
    }
  });

  test("not by connection and timeout errors", async () => {
    const closed = await startServer();
    await closed.close();
    expectNoToken(await failure(clientFor(closed).GET("/service-info")));
    const slow = await startServer(() => ({ delayMs: 5_000, body: {} }));
    try {
      expectNoToken(await failure(clientFor(slow, { timeoutMs: 50 }).GET("/service-info")));
    } finally {
      await slow.close();
    }
  });

  describe("no 8-character fragment of the token is reachable from an error (inspect, showHidden, depth 8)", () => {
    const fragments = Array.from({ length: TOKEN.length - 7 }, (_, i) => TOKEN.slice(i, i + 8));
    function expectNoFragment(error: unknown) {
      const text = inspect(error, { showHidden: true, depth: 8 });
      expect(fragments.filter((fragment) => text.includes(fragment))).toEqual([]);
    }
    let hostile: TestServer;
    let elsewhere: TestServer;
    beforeAll(async () => {
      hostile = await startServer();
      elsewhere = await startServer();
    });
    afterAll(async () => {
      await hostile.close();
      await elsewhere.close();
    });
    const bearer = (r: { headers: Record<string, unknown> }) => String(r.headers.authorization);

    test.each([400, 401, 403, 404, 409, 429, 500, 503])(
      "a %i echoing it in the body, whole and cut short, and in headers",
      async (status) => {
        hostile.handle((r) => ({
          status,
          headers: {
            "content-type": "application/json",
            "x-echo": bearer(r),
            "www-authenticate": `Bearer error="invalid_token", token="${TOKEN.slice(3, 20)}"`,
          },
          body: { message: `echo: ${bearer(r)}`, cut: bearer(r).slice(0, 18), [TOKEN]: 1 },
        }));
        const error = await failure(clientFor(hostile).GET("/service-info"));
        expect(error.status).toBe(status);
        expect(error.response?.headers.get("x-echo")).toBe("Bearer [REDACTED]");
        expectNoFragment(error);
      },
    );

    test("a body that is not JSON, which V8's JSON.parse would quote in its message", async () => {
      hostile.handle((r) => ({
        headers: { "content-type": "application/json", "x-echo": bearer(r) },
        body: `<pre>${bearer(r)}</pre>`,
      }));
      const error = await failure(clientFor(hostile).GET("/service-info"));
      expect(error.message).toMatch(/not JSON/);
      expect(error.cause).toBeUndefined();
      expectNoFragment(error);
      hostile.handle((r) => ({
        status: 400,
        headers: { "content-type": "application/json" },
        body: `{"message": ${bearer(r)}`,
      }));
      const invalid = await failure(clientFor(hostile).GET("/service-info"));
      expect(invalid.body).toBe('{"message": Bearer [REDACTED]');
      expectNoFragment(invalid);
    });

    test("a redirect whose Location carries it", async () => {
      hostile.handle(() => ({
        status: 307,
        headers: { location: `${elsewhere.url}/steal/${TOKEN}?t=${TOKEN}` },
      }));
      const error = await failure(
        clientFor(hostile).POST("/workflow/launch", { body: {} as never }),
      );
      expect(error.name).toBe("RedirectError");
      expect(error.message).toContain(`${elsewhere.url}/steal/[REDACTED]`);
      expectNoFragment(error);
      expect(elsewhere.requests).toHaveLength(0);
    });

    test("a success too large for the cap, or whose body broke off, with the token in headers", async () => {
      hostile.handle((r) => ({
        headers: { "content-type": "application/json", "x-echo": bearer(r) },
        body: `{"echo": "${bearer(r)}", "pad": "${"x".repeat(2000)}"}`,
      }));
      expectNoFragment(
        await failure(clientFor(hostile, { maxResponseBytes: 1000 }).GET("/service-info")),
      );
      hostile.handle((r) => ({
        write: (res) => {
          res.writeHead(200, { "content-type": "application/json", "x-echo": bearer(r) });
          res.write(`{"echo": "${bearer(r)}`, () => res.socket?.resetAndDestroy());
        },
      }));
      const broken = await failure(clientFor(hostile).GET("/service-info"));
      expect(broken.name).toBe("BodyReadError");
      expectNoFragment(broken);
    });
  });

  test("not by configuration errors", () => {
    let error: unknown;
    try {
      createSeqeraClient({ token: `${TOKEN} `, baseUrl: server.url });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(Error);
    expectNoToken(error);
  });

  test("not by logger entries, which carry no Authorization header either", async () => {
    const entries: LogEntry[] = [];
    const client = clientFor(server, { logger: (entry) => entries.push(entry) });
    await client.GET("/ok" as never);
    await failure(client.GET("/service-info"));
    expect(entries).toHaveLength(2);
    const text = JSON.stringify(entries) + inspect(entries, { depth: Infinity, showHidden: true });
    expect(text).not.toContain(TOKEN);
    expect(text.toLowerCase()).not.toContain("authorization");
  });

  test("not on the console: the client prints nothing", async () => {
    const printed: string[] = [];
    const capture = (...args: unknown[]) => {
      printed.push(args.map(String).join(" "));
      return true;
    };
    for (const method of ["log", "info", "warn", "error", "debug"] as const) {
      vi.spyOn(console, method).mockImplementation(capture);
    }
    vi.spyOn(process.stdout, "write").mockImplementation(capture);
    vi.spyOn(process.stderr, "write").mockImplementation(capture);
    const client = clientFor(server);
    await client.GET("/ok" as never);
    await failure(client.GET("/service-info"));
    vi.restoreAllMocks();
    expect(printed.join("\n")).not.toContain(TOKEN);
    expect(printed).toEqual([]);
  });
});
