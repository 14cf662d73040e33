import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ConfigurationError, createSeqeraClient, DEFAULT_BASE_URL } from "../../src/index.js";
import { useTestServer } from "../helpers/server.js";
import { TOKEN } from "../helpers/client.js";

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
  it.each([
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

  it("never echoes a malformed token in the error", () => {
    const token = "s3cr3t-value with-space";
    const error = captureError(() => createSeqeraClient({ ...quiet, token, baseUrl: server.url }));
    expect(error.message).not.toContain("s3cr3t");
    expect(JSON.stringify(error)).not.toContain("s3cr3t");
  });

  it("reads TOWER_ACCESS_TOKEN and sends it as a bearer token", async () => {
    vi.stubEnv("TOWER_ACCESS_TOKEN", TOKEN);
    const client = createSeqeraClient({ ...quiet, baseUrl: server.url });
    await client.GET("/user-info");
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("prefers the token option over TOWER_ACCESS_TOKEN", async () => {
    vi.stubEnv("TOWER_ACCESS_TOKEN", "from-env");
    const client = createSeqeraClient({ ...quiet, token: TOKEN, baseUrl: server.url });
    await client.GET("/user-info");
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("treats a blank token option as an error, not as a reason to fall back to the environment", () => {
    vi.stubEnv("TOWER_ACCESS_TOKEN", TOKEN);
    expect(() => createSeqeraClient({ ...quiet, token: "", baseUrl: server.url })).toThrow(
      /No Seqera access token/,
    );
  });
});

describe("base URL", () => {
  it("defaults to Seqera Cloud", () => {
    const client = createSeqeraClient({ ...quiet, token: TOKEN });
    expect(client.config.baseUrl).toBe(DEFAULT_BASE_URL);
    expect(DEFAULT_BASE_URL).toBe("https://api.cloud.seqera.io");
  });

  it("accepts the legacy endpoint and Enterprise URLs with a path prefix", () => {
    const legacy = createSeqeraClient({ ...quiet, token: TOKEN, baseUrl: "https://api.tower.nf/" });
    expect(legacy.config.baseUrl).toBe("https://api.tower.nf");
    const enterprise = createSeqeraClient({
      ...quiet,
      token: TOKEN,
      baseUrl: "https://seqera.example.org/api/",
    });
    expect(enterprise.config.baseUrl).toBe("https://seqera.example.org/api");
  });

  it("reads TOWER_API_ENDPOINT, keeping its path prefix in every request", async () => {
    vi.stubEnv("TOWER_API_ENDPOINT", `${server.url}/api`);
    const client = createSeqeraClient({ ...quiet, token: TOKEN });
    await client.GET("/workflow/{workflowId}", {
      params: { path: { workflowId: "4Bi5xBK6E2Nbhj" } },
    });
    expect(server.requests[0]!.pathname).toBe("/api/workflow/4Bi5xBK6E2Nbhj");
  });

  it("prefers the baseUrl option over TOWER_API_ENDPOINT", async () => {
    vi.stubEnv("TOWER_API_ENDPOINT", "https://api.tower.nf");
    const client = createSeqeraClient({ ...quiet, token: TOKEN, baseUrl: `${server.url}/tower` });
    await client.GET("/service-info");
    expect(server.requests[0]!.pathname).toBe("/tower/service-info");
  });

  it.each(["http://seqera.example.org", "http://10.0.0.5:8080/api"])(
    "refuses plain http to %s before any request",
    (baseUrl) => {
      expect(() => createSeqeraClient({ ...quiet, token: TOKEN, baseUrl })).toThrow(
        /Refusing plain http/,
      );
      expect(server.requests).toHaveLength(0);
    },
  );

  it("allows plain http to a non-loopback host when explicitly allowed", () => {
    const client = createSeqeraClient({
      ...quiet,
      token: TOKEN,
      baseUrl: "http://seqera.example.org/api",
      allowInsecureHttp: true,
    });
    expect(client.config.baseUrl).toBe("http://seqera.example.org/api");
  });

  it.each(["http://localhost:8080", "http://127.0.0.1:9", "http://[::1]:8080/api"])(
    "allows plain http to loopback %s",
    (baseUrl) => {
      expect(createSeqeraClient({ ...quiet, token: TOKEN, baseUrl }).config.baseUrl).toBe(baseUrl);
    },
  );

  it.each([
    ["api.cloud.seqera.io", /not an absolute URL/],
    ["ftp://api.cloud.seqera.io", /must use https/],
    ["https://user:pass@api.cloud.seqera.io", /credentials/],
    ["https://api.cloud.seqera.io/?x=1", /query string/],
  ])("refuses %s", (baseUrl, message) => {
    expect(() => createSeqeraClient({ ...quiet, token: TOKEN, baseUrl })).toThrow(message);
  });
});

describe("workspace id", () => {
  it("reads TOWER_WORKSPACE_ID and sends it to operations taking a workspaceId query parameter", async () => {
    vi.stubEnv("TOWER_WORKSPACE_ID", "138659136604200");
    const client = createSeqeraClient({ ...quiet, token: TOKEN, baseUrl: server.url });
    await client.GET("/workflow");
    expect(server.requests[0]!.query.get("workspaceId")).toBe("138659136604200");
  });

  it("lets the call's own workspaceId win over the default", async () => {
    const client = createSeqeraClient({
      ...quiet,
      token: TOKEN,
      baseUrl: server.url,
      workspaceId: 1,
    });
    await client.GET("/workflow", { params: { query: { workspaceId: 2 } } });
    expect(server.requests[0]!.query.getAll("workspaceId")).toEqual(["2"]);
  });

  it("prefers the workspaceId option over TOWER_WORKSPACE_ID", async () => {
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

  it("workspaceId: null sends no default workspace, whatever TOWER_WORKSPACE_ID says", async () => {
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

  it("adds nothing to operations without a workspaceId query parameter", async () => {
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

  it.each(["abc", "-1", "1.5", "0"])("refuses workspace id %s", (workspaceId) => {
    vi.stubEnv("TOWER_WORKSPACE_ID", workspaceId);
    expect(() => createSeqeraClient({ ...quiet, token: TOKEN })).toThrow(
      /Workspace id must be a positive integer/,
    );
  });
});

describe("other options", () => {
  it("reads the TOWER_* defaults from `env` when given, instead of process.env", async () => {
    vi.stubEnv("TOWER_WORKSPACE_ID", "999");
    const client = createSeqeraClient({
      ...quiet,
      env: { TOWER_ACCESS_TOKEN: TOKEN, TOWER_API_ENDPOINT: `${server.url}/api` },
    });
    await client.GET("/workflow");
    expect(server.requests[0]!.url).toBe("/api/workflow");
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it.each([-1, Number.NaN])("refuses timeoutMs %s", (timeoutMs) => {
    expect(() => createSeqeraClient({ ...quiet, token: TOKEN, timeoutMs })).toThrow(/timeoutMs/);
  });

  it("refuses a blank Accept-Version", () => {
    expect(() => createSeqeraClient({ ...quiet, token: TOKEN, acceptVersion: "" })).toThrow(
      /acceptVersion/,
    );
  });

  it("freezes the resolved config", () => {
    const client = createSeqeraClient({ ...quiet, token: TOKEN });
    expect(Object.isFrozen(client.config)).toBe(true);
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
