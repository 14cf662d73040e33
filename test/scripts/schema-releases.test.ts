import { afterAll, describe, expect, expectTypeOf, test } from "vitest";
import { SCHEMA_VERSION } from "../../generated/version.js";
import {
  checkCompatibility,
  hasOperation,
  requireOperation,
  UnsupportedOperationError,
} from "../../src/index.js";
import { packageLine } from "../../src/core/versions.js";
import { type IfOperation, type OperationKey } from "../../src/openapi/require-operation.js";
import { sampledComponent } from "../../src/testing/answers.js";
import { clientFor } from "../helpers/client.js";
import { startServer, type TestServer } from "../helpers/server.js";

let server: TestServer | undefined;
afterAll(async () => {
  await server?.close();
});

describe("which package line fits a server", () => {
  test("packageLine: the release's major.minor", () => {
    expect(packageLine("1.140.0")).toBe("1.140.x");
    expect(packageLine("1.85.3")).toBe("1.85.x");
    expect(packageLine(SCHEMA_VERSION)).toBe(SCHEMA_VERSION.replace(/\.\d+$/, ".x"));
  });

  test.each([
    [
      "1.140.0",
      false,
      "The package line for this server is 1.140.x (npm install --save-exact seqera-api-client@1.140).",
    ],
    [SCHEMA_VERSION, true, `matches this client (package line ${packageLine(SCHEMA_VERSION)})`],
    [
      "9.200.1",
      true,
      "The package line for this server, once published, is 9.200.x (npm install --save-exact seqera-api-client@9.200).",
    ],
  ])("checkCompatibility names the line for a %s server", async (apiVersion, compatible, says) => {
    server ??= await startServer();
    server.reply({ body: { serviceInfo: { version: "25.1.0", apiVersion } } });
    const report = await checkCompatibility(clientFor(server));
    expect(report).toMatchObject({
      compatible,
      clientLine: packageLine(SCHEMA_VERSION),
      serverLine: packageLine(apiVersion),
    });
    expect(report.message).toContain(says);
  });
});

describe("what the release has", () => {
  test("requireOperation gives an operation of the release, and names the release for one it lacks", () => {
    expect(requireOperation("GET /workflow/{workflowId}").operationId).toBe("DescribeWorkflow");
    expect(hasOperation("GET /workflow/{workflowId}")).toBe(true);
    expect(hasOperation("GET /labels/{labelId}/nothing")).toBe(false);
    // Inherited keys of an object are not operations.
    expect(hasOperation("constructor")).toBe(false);
    const error = (() => {
      try {
        requireOperation("GET /labels/{labelId}/nothing");
      } catch (err) {
        return err;
      }
    })();
    expect(error).toBeInstanceOf(UnsupportedOperationError);
    expect(error).toMatchObject({
      name: "UnsupportedOperationError",
      operation: "GET /labels/{labelId}/nothing",
      release: SCHEMA_VERSION,
      message:
        `GET /labels/{labelId}/nothing is not in API ${SCHEMA_VERSION}, the release this client ` +
        "was built from; use the seqera-api-client line of a release that has it if your " +
        "server does (checkCompatibility names the line for a server)",
    });
  });

  test("the emulator of a release lacking a schema a route answers with says which, and the release", () => {
    const doc = { info: { version: "1.85.0" }, components: { schemas: {} } };
    expect(() => sampledComponent(doc as never, "WorkflowMaxDbDto", false)).toThrow(
      new UnsupportedOperationError("schema WorkflowMaxDbDto", "1.85.0"),
    );
    expect(new UnsupportedOperationError("schema WorkflowMaxDbDto", "1.85.0").message).toMatch(
      /^schema WorkflowMaxDbDto is not in API 1\.85\.0, /,
    );
  });

  test("the types say so too", () => {
    expectTypeOf<"GET /workflow/{workflowId}">().toMatchTypeOf<OperationKey>();
    expectTypeOf<"POST /workflow/launch">().toMatchTypeOf<OperationKey>();
    expectTypeOf<"GET /no/such/path">().not.toMatchTypeOf<OperationKey>();
    expectTypeOf<IfOperation<"GET /workflow/{workflowId}", number>>().toEqualTypeOf<number>();
    expectTypeOf<IfOperation<"GET /no/such/path", number>>().toEqualTypeOf<{
      unsupported: "GET /no/such/path is not in this API release";
    }>();
  });
});
