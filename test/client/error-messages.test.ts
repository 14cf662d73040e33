import { expect, test } from "vitest";
import {
  ConfigurationError,
  ConnectionError,
  createSeqeraClient,
  ForbiddenError,
  RateLimitError,
} from "../../src/index.js";
import { tell } from "../../src/errors/settings.js";
import { clientFor } from "../helpers/client.js";
import { failure } from "../helpers/calls.js";
import { freePort } from "../helpers/ports.js";
import { useTestServer } from "../helpers/server.js";

const server = await useTestServer();
const RATE = "Maximum request rate exceeded. Wait 0secs before issuing a new request";

const describeWorkflow = (retry: { maxAttempts?: number; maxDelayMs?: number }) =>
  clientFor(server, { retry: { baseDelayMs: 1, ...retry } }).GET("/workflow/{workflowId}", {
    params: { path: { workflowId: "w1" } },
  });

test("a 429 that outlasts the retries names the operation, the attempts made and the option to raise", async () => {
  server.reply(
    ...Array.from({ length: 2 }, () => ({
      status: 429,
      headers: { "retry-after": "0" },
      body: { message: RATE },
    })),
  );
  const error = await failure<RateLimitError>(describeWorkflow({ maxAttempts: 2 }));
  expect(error).toBeInstanceOf(RateLimitError);
  expect(error.message).toMatch(
    new RegExp(
      `^${RATE} \\(DescribeWorkflow: gave up after 2 attempts in \\d+ ms \\(retry\\.maxAttempts is 2\\); raise it to try longer\\)$`,
    ),
  );
});

test("a Retry-After above maxDelayMs says so, instead of giving up silently", async () => {
  server.reply({ status: 429, headers: { "retry-after": "30" }, body: { message: RATE } });
  const error = await failure<RateLimitError>(describeWorkflow({}));
  expect(error.message).toMatch(
    /\(DescribeWorkflow: gave up after 1 attempt in \d+ ms: the server asked to wait 30 s \(Retry-After\), more than retry\.maxDelayMs \(10000 ms\); raise retry\.maxDelayMs to wait that long\)$/,
  );
});

test("a POST that failed on the wire says why it was not retried and what to set", async () => {
  server.reply({ status: 503, body: { message: "Service Unavailable" } });
  const error = await failure(
    clientFor(server, { retry: {} }).POST("/workflow/launch", { body: { launch: {} } as never }),
  );
  expect((error as Error).message).toBe(
    "Service Unavailable (CreateWorkflowLaunch: not retried: POST may have done its work before failing; pass retryUnsafe: true on the call if repeating it is safe)",
  );
});

test("no response: ConnectionError pointing at the endpoint setting", async () => {
  const port = await freePort();
  const client = clientFor({ url: `http://127.0.0.1:${port}` });
  const error = await failure<ConnectionError>(client.GET("/service-info"));
  expect(error).toBeInstanceOf(ConnectionError);
  expect(error.message).toBe(
    `GET /service-info failed: no response from http://127.0.0.1:${port} (ECONNREFUSED); check the endpoint (the baseUrl option or TOWER_API_ENDPOINT) and the network`,
  );
});

test("403 on /user-info names the token, its only cause", async () => {
  server.reply({ status: 403 });
  const error = await failure<ForbiddenError>(clientFor(server).GET("/user-info"));
  expect(error).toBeInstanceOf(ForbiddenError);
  expect(error.message).toBe(
    "Forbidden (403) for GET /user-info: the access token (the token option or TOWER_ACCESS_TOKEN) was refused: it is invalid, expired or revoked, the only cause of a 403 there; create a new one under Your tokens in the Seqera Platform UI.",
  );
});

test("a give-up is data on the error, told in each front end's terms without parsing its message", async () => {
  server.reply(
    ...Array.from({ length: 2 }, () => ({ status: 429, headers: { "retry-after": "0" } })),
  );
  const error = await failure<RateLimitError>(describeWorkflow({ maxAttempts: 2 }));
  expect(error.giveUp).toMatchObject({ attempts: 2, stoppedBy: "maxAttempts", limit: 2 });
  expect(tell(error, "cli")).toMatch(/\(DescribeWorkflow: gave up after 2 attempts in \d+ ms\)$/);
  expect(tell(error, "library")).toBe(error.message);
});

test("a 403 keeps what the server said as a field", async () => {
  server.reply({ status: 403, body: { message: "No access - Error ID: 7x" } });
  const error = await failure<ForbiddenError>(describeWorkflow({}));
  expect(error.serverMessage).toBe("No access");
  expect(error.errorId).toBe("7x");
  server.reply({ status: 403 });
  expect((await failure<ForbiddenError>(describeWorkflow({}))).serverMessage).toBeUndefined();
});

test("a bad option names itself and where it came from, told per front end", () => {
  const fromEnv = catchError(() =>
    createSeqeraClient({ env: { TOWER_ACCESS_TOKEN: "t", TOWER_API_ENDPOINT: "http://u:p@h" } }),
  );
  expect(fromEnv).toMatchObject({ option: "baseUrl", source: "TOWER_API_ENDPOINT" });
  expect(fromEnv.message).toBe("Base URL must not contain credentials; pass the token as `token`.");
  expect(tell(fromEnv, "cli")).toBe(
    "TOWER_API_ENDPOINT must not hold credentials: put the access token in TOWER_ACCESS_TOKEN, and the URL without them.",
  );
  const fromOption = catchError(() =>
    createSeqeraClient({ token: "t", baseUrl: "http://seqera.example", env: {} }),
  );
  expect(fromOption).toMatchObject({ option: "baseUrl", source: "option" });
  expect(tell(fromOption, "action")).toContain("(the api_endpoint input)");
  const noToken = catchError(() => createSeqeraClient({ env: {} }));
  expect(noToken).toMatchObject({ option: "token", source: "TOWER_ACCESS_TOKEN" });
  expect(tell(noToken, "cli")).toContain("TOWER_ACCESS_TOKEN is not set");
  expect(
    catchError(() => createSeqeraClient({ token: "t", env: {}, timeoutMs: -1 })),
  ).toMatchObject({ option: "timeoutMs", source: undefined });
});

function catchError(run: () => unknown): ConfigurationError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return error as ConfigurationError;
  }
  throw new Error("no error");
}
