import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import {
  ConfigurationError,
  createSeqeraClient,
  type SeqeraClientOptions,
} from "../../src/index.js";
import { CLIENT_OPTION_DOCS, DEFAULT_BASE_URL } from "../../src/config/config.js";
import { CLIENT_OPTIONS } from "../../src/config/checks.js";
import { useTestServer } from "../helpers/server.js";
import { clientFor, TOKEN } from "../helpers/client.js";

const server = await useTestServer();
beforeEach(() => {
  // The machine running the tests may have its own tw settings.
  vi.stubEnv("TOWER_ACCESS_TOKEN", undefined);
  vi.stubEnv("TOWER_API_ENDPOINT", undefined);
  vi.stubEnv("TOWER_WORKSPACE_ID", undefined);
});
afterEach(() => {
  vi.unstubAllEnvs();
});

const quiet = { retry: false, rateLimit: false } as const;

describe("token", () => {
  test.each([
    ["missing", undefined, /No Seqera access token/],
    ["blank", "   ", /No Seqera access token/],
    ["with a trailing newline", `${TOKEN}\n`, /whitespace, control/],
    ["with an inner space", "abc def", /whitespace, control/],
    ["with a control character", "abc\u0000def", /whitespace, control/],
    ["with a non-ASCII character", "abc\u201cdef", /non-ASCII/],
  ])("refuses a token %s before any request", (_case, token, message) => {
    expect(() => createSeqeraClient({ ...quiet, token, baseUrl: server.url })).toThrow(message);
    expect(() => createSeqeraClient({ ...quiet, token, baseUrl: server.url })).toThrow(
      ConfigurationError,
    );
    expect(server.requests).toHaveLength(0);
  });

  test("never echoes a malformed token in the error", () => {
    const token = "s3cr3t-value with-space";
    const error = captureError(() => createSeqeraClient({ ...quiet, token, baseUrl: server.url }));
    expect(error.message).not.toContain("s3cr3t");
    expect(JSON.stringify(error)).not.toContain("s3cr3t");
  });

  test("reads TOWER_ACCESS_TOKEN and sends it as a bearer token", async () => {
    vi.stubEnv("TOWER_ACCESS_TOKEN", TOKEN);
    const client = createSeqeraClient({ ...quiet, baseUrl: server.url });
    await client.GET("/user-info");
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  test("prefers the token option over TOWER_ACCESS_TOKEN", async () => {
    vi.stubEnv("TOWER_ACCESS_TOKEN", "from-env");
    const client = createSeqeraClient({ ...quiet, token: TOKEN, baseUrl: server.url });
    await client.GET("/user-info");
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  test("treats a blank token option as an error, not as a reason to fall back to the environment", () => {
    vi.stubEnv("TOWER_ACCESS_TOKEN", TOKEN);
    expect(() => createSeqeraClient({ ...quiet, token: "", baseUrl: server.url })).toThrow(
      /No Seqera access token/,
    );
  });
});

describe("base URL", () => {
  test("defaults to Seqera Cloud", () => {
    const client = createSeqeraClient({ ...quiet, token: TOKEN });
    expect(client.config.baseUrl).toBe(DEFAULT_BASE_URL);
    expect(DEFAULT_BASE_URL).toBe("https://api.cloud.seqera.io");
  });

  test("accepts the legacy endpoint and Enterprise URLs with a path prefix", () => {
    const legacy = createSeqeraClient({ ...quiet, token: TOKEN, baseUrl: "https://api.tower.nf/" });
    expect(legacy.config.baseUrl).toBe("https://api.tower.nf");
    const enterprise = createSeqeraClient({
      ...quiet,
      token: TOKEN,
      baseUrl: "https://seqera.example.org/api/",
    });
    expect(enterprise.config.baseUrl).toBe("https://seqera.example.org/api");
  });

  test("reads TOWER_API_ENDPOINT, keeping its path prefix in every request", async () => {
    vi.stubEnv("TOWER_API_ENDPOINT", `${server.url}/api`);
    const client = createSeqeraClient({ ...quiet, token: TOKEN });
    await client.GET("/workflow/{workflowId}", {
      params: { path: { workflowId: "4Bi5xBK6E2Nbhj" } },
    });
    expect(server.requests[0]!.pathname).toBe("/api/workflow/4Bi5xBK6E2Nbhj");
  });

  test("prefers the baseUrl option over TOWER_API_ENDPOINT", async () => {
    vi.stubEnv("TOWER_API_ENDPOINT", "https://api.tower.nf");
    const client = createSeqeraClient({ ...quiet, token: TOKEN, baseUrl: `${server.url}/tower` });
    await client.GET("/service-info");
    expect(server.requests[0]!.pathname).toBe("/tower/service-info");
  });

  test.each(["http://seqera.example.org", "http://10.0.0.5:8080/api"])(
    "refuses plain http to %s before any request",
    (baseUrl) => {
      expect(() => createSeqeraClient({ ...quiet, token: TOKEN, baseUrl })).toThrow(
        /Refusing plain http/,
      );
      expect(server.requests).toHaveLength(0);
    },
  );

  test("allows plain http to a non-loopback host when explicitly allowed", () => {
    const client = createSeqeraClient({
      ...quiet,
      token: TOKEN,
      baseUrl: "http://seqera.example.org/api",
      allowInsecureHttp: true,
    });
    expect(client.config.baseUrl).toBe("http://seqera.example.org/api");
  });

  test.each(["http://localhost:8080", "http://127.0.0.1:9", "http://[::1]:8080/api"])(
    "allows plain http to loopback %s",
    (baseUrl) => {
      expect(createSeqeraClient({ ...quiet, token: TOKEN, baseUrl }).config.baseUrl).toBe(baseUrl);
    },
  );

  test.each([
    ["api.cloud.seqera.io", /not an absolute URL/],
    ["ftp://api.cloud.seqera.io", /must use https/],
    ["https://user:pass@api.cloud.seqera.io", /credentials/],
    ["https://api.cloud.seqera.io/?x=1", /query string/],
  ])("refuses %s", (baseUrl, message) => {
    expect(() => createSeqeraClient({ ...quiet, token: TOKEN, baseUrl })).toThrow(message);
  });
});

describe("workspace id", () => {
  test("reads TOWER_WORKSPACE_ID and sends it to operations taking a workspaceId query parameter", async () => {
    vi.stubEnv("TOWER_WORKSPACE_ID", "138659136604200");
    const client = createSeqeraClient({ ...quiet, token: TOKEN, baseUrl: server.url });
    await client.GET("/workflow");
    expect(server.requests[0]!.query.get("workspaceId")).toBe("138659136604200");
  });

  test("lets the call's own workspaceId win over the default", async () => {
    const client = createSeqeraClient({
      ...quiet,
      token: TOKEN,
      baseUrl: server.url,
      workspaceId: 1,
    });
    await client.GET("/workflow", { params: { query: { workspaceId: 2 } } });
    expect(server.requests[0]!.query.getAll("workspaceId")).toEqual(["2"]);
  });

  test("prefers the workspaceId option over TOWER_WORKSPACE_ID", async () => {
    vi.stubEnv("TOWER_WORKSPACE_ID", "999");
    const client = createSeqeraClient({
      ...quiet,
      token: TOKEN,
      baseUrl: server.url,
      workspaceId: "42",
    });
    await client.GET("/workflow");
    expect(server.requests[0]!.query.get("workspaceId")).toBe("42");
  });

  test("workspaceId: null sends no default workspace, whatever TOWER_WORKSPACE_ID says", async () => {
    vi.stubEnv("TOWER_WORKSPACE_ID", "999");
    const client = createSeqeraClient({
      ...quiet,
      token: TOKEN,
      baseUrl: server.url,
      workspaceId: null,
    });
    await client.GET("/workflow");
    expect(server.requests[0]!.query.has("workspaceId")).toBe(false);
  });

  test("adds nothing to operations without a workspaceId query parameter", async () => {
    const client = createSeqeraClient({
      ...quiet,
      token: TOKEN,
      baseUrl: server.url,
      workspaceId: 42,
    });
    await client.GET("/service-info");
    await client.GET("/user-info");
    expect(server.requests.map((r) => r.url)).toEqual(["/service-info", "/user-info"]);
  });

  test.each(["abc", "-1", "1.5", "0", "org/", "/ws", "org/ws/x", "org ws/x"])(
    "refuses workspace id %j",
    (workspaceId) => {
      vi.stubEnv("TOWER_WORKSPACE_ID", workspaceId);
      expect(() => createSeqeraClient({ ...quiet, token: TOKEN })).toThrow(
        `workspaceId (or TOWER_WORKSPACE_ID) must be a positive integer or "organization/workspace", got ${JSON.stringify(workspaceId)}.`,
      );
    },
  );

  test("takes a workspace by name, as tw does, kept as given until a call resolves it", () => {
    vi.stubEnv("TOWER_WORKSPACE_ID", "my-org/rna_seq");
    const client = createSeqeraClient({ ...quiet, token: TOKEN });
    expect(client.config.workspaceId).toBe("my-org/rna_seq");
    const option = createSeqeraClient({ ...quiet, token: TOKEN, workspaceId: " acme/prod " });
    expect(option.config.workspaceId).toBe("acme/prod");
    const id = createSeqeraClient({ ...quiet, token: TOKEN, workspaceId: "9007199254740993" });
    expect(id.config.workspaceId).toBe("9007199254740993");
  });
});

describe("other options", () => {
  test("reads the TOWER_* defaults from `env` when given, instead of process.env", async () => {
    vi.stubEnv("TOWER_WORKSPACE_ID", "999");
    const client = createSeqeraClient({
      ...quiet,
      env: { TOWER_ACCESS_TOKEN: TOKEN, TOWER_API_ENDPOINT: `${server.url}/api` },
    });
    await client.GET("/workflow");
    expect(server.requests[0]!.url).toBe("/api/workflow");
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  test("freezes the resolved config, retry defaults filled in", () => {
    const client = createSeqeraClient({ ...quiet, token: TOKEN, retry: { maxAttempts: 2 } });
    expect(client.config.retry).toEqual({
      maxAttempts: 2,
      maxElapsedMs: 60_000,
      baseDelayMs: 300,
      maxDelayMs: 10_000,
    });
    expect(client.config.maxResponseBytes).toBe(64 * 1024 * 1024);
  });

  test("freezes the resolved config", () => {
    const client = createSeqeraClient({ ...quiet, token: TOKEN });
    expect(Object.isFrozen(client.config)).toBe(true);
  });
});

/** Every option is checked in one place; each bad value names the option and the value. */
describe("bad option values are a ConfigurationError naming the option and the value", () => {
  const client = (options: Record<string, unknown>) =>
    createSeqeraClient({ token: TOKEN, env: {}, ...options } as SeqeraClientOptions);

  test("rateLimit.redisTimeoutMs takes 0 and Infinity (wait for Redis without limit)", () => {
    for (const redisTimeoutMs of [0, Infinity]) {
      const client = createSeqeraClient({ ...quiet, token: TOKEN, rateLimit: { redisTimeoutMs } });
      expect(client.config.rateLimit).toMatchObject({ redisTimeoutMs });
    }
  });

  test.each([
    [
      { timeoutMs: -1 },
      "timeoutMs must be 0 (no timeout) or a positive number of milliseconds, got -1.",
    ],
    [
      { timeoutMs: Number.NaN },
      "timeoutMs must be 0 (no timeout) or a positive number of milliseconds, got NaN.",
    ],
    [
      { timeoutMs: "100" },
      'timeoutMs must be 0 (no timeout) or a positive number of milliseconds, got "100".',
    ],
    [
      { maxResponseBytes: 0 },
      "maxResponseBytes must be a positive integer number of bytes, got 0.",
    ],
    [
      { maxResponseBytes: 1.5 },
      "maxResponseBytes must be a positive integer number of bytes, got 1.5.",
    ],
    [
      { acceptVersion: "" },
      'acceptVersion must be a non-empty header value (visible ASCII), got "".',
    ],
    [
      { acceptVersion: 2 },
      "acceptVersion must be a non-empty header value (visible ASCII), got 2.",
    ],
    [{ baseUrl: 42 }, "baseUrl must be a URL string, got 42."],
    [{ fetch: "fetch" }, 'fetch must be a function, got "fetch".'],
    [{ logger: {} }, "logger must be a function, got an object."],
    [{ allowInsecureHttp: "yes" }, 'allowInsecureHttp must be true or false, got "yes".'],
    [{ env: null }, "env must be an object, got null."],
    [{ token: 123 }, "token must be a string, got a number."],
    [{ rateLimit: { perSecond: 0 } }, "rateLimit.perSecond must be a positive integer, got 0."],
    [
      { rateLimit: { perSecond: Number.NaN } },
      "rateLimit.perSecond must be a positive integer, got NaN.",
    ],
    [{ rateLimit: { perSecond: 2.5 } }, "rateLimit.perSecond must be a positive integer, got 2.5."],
    [
      { rateLimit: { perHour: 1.5 } },
      "rateLimit.perHour must be a positive integer, or null for no hourly budget, got 1.5.",
    ],
    [
      { rateLimit: { perHour: -5 } },
      "rateLimit.perHour must be a positive integer, or null for no hourly budget, got -5.",
    ],
    [
      { rateLimit: { windowMarginMs: -1 } },
      "rateLimit.windowMarginMs must be a non-negative number of milliseconds, got -1.",
    ],
    [
      { rateLimit: { windowMarginMs: Infinity } },
      "rateLimit.windowMarginMs must be a non-negative number of milliseconds, got Infinity.",
    ],
    [
      { rateLimit: { redisTimeoutMs: NaN } },
      "rateLimit.redisTimeoutMs must be a number of milliseconds from 0 to 2147483647, or Infinity, got NaN.",
    ],
    [
      { rateLimit: { redisTimeoutMs: 2 ** 31 } },
      "rateLimit.redisTimeoutMs must be a number of milliseconds from 0 to 2147483647, or Infinity, got 2147483648.",
    ],
    [
      { rateLimit: { redis: "" } },
      'rateLimit.redis must be a redis:// URL or ioredis options, got "".',
    ],
    [{ rateLimit: true }, "rateLimit (an object, or false) must be an object, got true."],
    [
      { rateLimit: { perSeconds: 5 } },
      'Unknown option "perSeconds" in rateLimit (an object, or false); known: perSecond, perHour, windowMarginMs, redis, redisTimeoutMs.',
    ],
    [
      { retry: { maxAttempts: Number.NaN } },
      "retry.maxAttempts must be a positive integer (1: no retry), got NaN.",
    ],
    [
      { retry: { maxAttempts: 0 } },
      "retry.maxAttempts must be a positive integer (1: no retry), got 0.",
    ],
    [
      { retry: { maxAttempts: Infinity } },
      "retry.maxAttempts must be a positive integer (1: no retry), got Infinity.",
    ],
    [
      { retry: { maxElapsedMs: -1 } },
      "retry.maxElapsedMs must be a non-negative number of milliseconds, got -1.",
    ],
    [
      { retry: { baseDelayMs: Number.NaN } },
      "retry.baseDelayMs must be a non-negative number of milliseconds, got NaN.",
    ],
    [
      { retry: { maxDelayMs: "1s" } },
      'retry.maxDelayMs must be a non-negative number of milliseconds, got "1s".',
    ],
    [
      { retry: { attempts: 3 } },
      'Unknown option "attempts" in retry (an object, or false); known: maxAttempts, maxElapsedMs, baseDelayMs, maxDelayMs.',
    ],
    [{ retry: 3 }, "retry (an object, or false) must be an object, got 3."],
  ])("client option %o", (options, message) => {
    expect(() => client(options)).toThrow(configurationError(message));
    expect(() => client(options)).toThrow(ConfigurationError);
    expect(server.requests).toHaveLength(0);
  });

  test.each([
    [
      { timeoutMs: -1 },
      "timeoutMs (GET /service-info) must be 0 (no timeout) or a positive number of milliseconds, got -1.",
    ],
    [
      { timeoutMs: Number.NaN },
      "timeoutMs (GET /service-info) must be 0 (no timeout) or a positive number of milliseconds, got NaN.",
    ],
    [
      { maxResponseBytes: -1 },
      "maxResponseBytes (GET /service-info) must be a positive integer number of bytes, got -1.",
    ],
    [
      { acceptVersion: "1 2" },
      'acceptVersion (GET /service-info) must be a non-empty header value (visible ASCII), got "1 2".',
    ],
    [{ retryUnsafe: "yes" }, 'retryUnsafe (GET /service-info) must be true or false, got "yes".'],
    [
      { parseAs: "xml" },
      'parseAs (GET /service-info) must be one of "json", "text", "blob", "arrayBuffer", "stream", got "xml".',
    ],
    [{ signal: {} }, "signal (GET /service-info) must be an AbortSignal, got an object."],
    [
      { headers: "x" },
      'headers (GET /service-info) must be Headers, an object or an array of pairs, got "x".',
    ],
    [{ params: { query: 5 } }, "params.query (GET /service-info) must be an object, got 5."],
  ])("call option %o, before any request", async (init, message) => {
    const call = clientFor(server).GET("/service-info", init as never);
    await expect(call).rejects.toThrow(configurationError(message));
    await expect(call).rejects.toBeInstanceOf(ConfigurationError);
    expect(server.requests).toHaveLength(0);
  });

  test.each([
    [
      { pageSize: 0 },
      "pageSize (GET /workflow) must be a positive integer (at most 100 are asked for), got 0.",
    ],
    [
      { pageSize: Number.NaN },
      "pageSize (GET /workflow) must be a positive integer (at most 100 are asked for), got NaN.",
    ],
    [{ limit: -1 }, "limit (GET /workflow) must be a non-negative integer, got -1."],
    [{ limit: 2.5 }, "limit (GET /workflow) must be a non-negative integer, got 2.5."],
    [
      { timeoutMs: -1 },
      "timeoutMs (GET /workflow) must be 0 (no timeout) or a positive number of milliseconds, got -1.",
    ],
    [{ parseAs: "text" }, "paginate(GET /workflow) reads JSON pages: parseAs cannot be set."],
  ])("pagination option %o, when paginate() is called", (init, message) => {
    expect(() => clientFor(server).paginate("/workflow", init as never)).toThrow(
      configurationError(message),
    );
    expect(server.requests).toHaveLength(0);
  });

  test("keys it does not know are let through: options are often spread from a larger object", async () => {
    const settings = { token: TOKEN, baseUrl: server.url, pipeline: "nf-core/rnaseq" };
    const loose = createSeqeraClient({ ...settings, ...quiet, env: {} });
    const call = { params: { query: { max: 1 } }, label: "x" };
    await loose.GET("/workflow", call);
    expect(server.requests.map((r) => r.url)).toEqual(["/workflow?max=1"]);
  });

  test("a path that is not a list cannot be paginated", () => {
    expect(() => clientFor(server).paginate("/service-info" as "/workflow")).toThrow(
      configurationError("GET /service-info is not a paginated list operation."),
    );
  });
});

function captureError(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected an error");
}

test("the docs' table of client options lists each option the client reads, once", () => {
  const resolvedApart = ["token", "baseUrl", "workspaceId", "rateLimit", "retry", "env"];
  const documented = CLIENT_OPTION_DOCS.map((option) => option.name);
  expect(new Set(documented).size).toBe(documented.length);
  expect([...documented].sort()).toEqual([...Object.keys(CLIENT_OPTIONS), ...resolvedApart].sort());
});

/** A ConfigurationError with that message, whatever option and source it names. */
function configurationError(message: string) {
  return expect.objectContaining({ name: "ConfigurationError", message });
}
