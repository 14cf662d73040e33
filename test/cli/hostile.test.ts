/** The CLI against a loopback server that misbehaves: every failure one line, the right code, and an exit. */
import { beforeAll, describe, expect, test } from "vitest";
import { EXIT } from "../../src/cli/exit-codes.js";
import { useTestServer } from "../helpers/server.js";
import { sharedBuild, lines, runCli, type BuiltCli } from "./cli.js";

const server = await useTestServer();
let cli: BuiltCli;
beforeAll(async () => {
  cli = await sharedBuild();
});

const token = "hostile-test-token-7f3a9c";
const seqera = (args: string[]) =>
  runCli(cli.main, args, {
    env: { TOWER_API_ENDPOINT: server.url, TOWER_ACCESS_TOKEN: token },
  });

/** Exit code and one line on stderr; nothing on stdout; never the token. */
function expectFailure(result: Awaited<ReturnType<typeof seqera>>, code: number, pattern: RegExp) {
  expect(result.stdout).toBe("");
  expect(result.stderr).toMatch(/^seqera-api: [^\n]+\n$/);
  expect(result.stderr).toMatch(pattern);
  expect(result.stderr).not.toContain(token);
  expect(result.code).toBe(code);
}

describe("a hostile server", () => {
  test("truncated JSON on a 200", async () => {
    server.reply({ headers: { "content-type": "application/json" }, body: '{"workflows": [{"id' });
    expectFailure(
      await seqera(["ListWorkflows"]),
      EXIT.failure,
      /^seqera-api: 200 ListWorkflows: GET \/workflow answered 200 with a body that is not JSON/,
    );
  });

  test("an HTML login page on a 200", async () => {
    server.reply({
      headers: { "content-type": "text/html" },
      body: "<html><body>Sign in</body></html>",
    });
    expectFailure(await seqera(["ListWorkflows"]), EXIT.failure, /HTML/i);
  });

  test("every connection reset: retried, then one line naming the failure", async () => {
    server.handle(() => ({ destroy: true }));
    try {
      const result = await seqera(["ListWorkflows"]);
      expectFailure(result, EXIT.failure, /no response from http:\/\/127\.0\.0\.1:\d+/);
      expect(server.requests.length).toBe(5);
    } finally {
      server.handle(() => ({ body: {} }));
    }
  });

  test("a 500 with a long multi-line body and the Authorization header echoed", async () => {
    server.handle((request) => ({
      status: 500,
      body: `Internal error\n${"x".repeat(5_000)}\nheaders: ${request.headers.authorization}`,
    }));
    try {
      const result = await seqera(["ListWorkflows"]);
      expectFailure(result, EXIT.failure, /^seqera-api: 500 ListWorkflows: Internal error x+…\n$/);
      expect(result.stderr.length).toBeLessThan(400);
    } finally {
      server.handle(() => ({ body: {} }));
    }
  });

  test("the Authorization header echoed in an error body that is shown", async () => {
    server.reply({
      status: 400,
      body: { message: "bad header Bearer hostile-test-token-7f3a9c - Error ID: e1" },
    });
    const result = await seqera(["ListWorkflows"]);
    expectFailure(
      result,
      EXIT.usage,
      /^seqera-api: 400 ListWorkflows: bad header Bearer \[REDACTED\] \(Error ID: e1\)\n$/,
    );
  });

  test("headers, then a body that never comes: --timeout ends it with exit 3", async () => {
    server.reply({
      headers: { "content-type": "application/json" },
      bodyDelayMs: 20_000,
      body: "{}",
    });
    expectFailure(
      await seqera(["ListWorkflows", "--timeout", "1s"]),
      EXIT.timeout,
      /did not finish within --timeout 1s/,
    );
  });

  test("a page whose list is not an array stops --paginate after the items already printed", async () => {
    server.reply(
      { body: { workflows: [{ workflow: { id: "1" } }, { workflow: { id: "2" } }], totalSize: 4 } },
      { body: { workflows: "oops", totalSize: 4 } },
    );
    const result = await seqera(["ListWorkflows", "--paginate", "-q", "max=2"]);
    expect(lines(result.stdout)).toEqual([{ workflow: { id: "1" } }, { workflow: { id: "2" } }]);
    expect(result.stderr).toBe(
      'seqera-api: 200 ListWorkflows: GET /workflow answered 200 with "workflows" as string where a list was expected\n',
    );
    expect(result.code).toBe(EXIT.failure);
  });
});
