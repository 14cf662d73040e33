import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, expectTypeOf, test } from "vitest";
import { SCHEMA_VERSION } from "../generated/version.js";
import { runSchemaUpdate } from "../scripts/schema/run-update.js";
import { copyTree, generateIn, run, typeErrorsIn } from "../scripts/schema/releases.js";
import {
  checkCompatibility,
  hasOperation,
  requireOperation,
  UnsupportedOperationError,
} from "../src/index.js";
import { packageLine } from "../src/core/versions.js";
import { type IfOperation, type OperationKey } from "../src/openapi/require-operation.js";
import { sampledComponent } from "../src/testing/answers.js";
import { readRelease, removeTempDirs, ROOT, tempDir, tempProject } from "./schema-helpers.js";
import { clientFor } from "./helpers/client.js";
import { startServer, type TestServer } from "./helpers/server.js";

let server: TestServer | undefined;
afterAll(async () => {
  await server?.close();
  await removeTempDirs();
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

/**
 * The next release, simulated: 1.181.0 renamed 1.187.0, with what a release typically adds (a
 * launch setting, an operation) added by a test-only overlay that applies to it alone.
 */
const NEXT = "1.187.0";
const SIMULATED_OVERLAY = `overlay: 1.0.0
x-releases: ">=${NEXT}"
info: { title: simulated next release, version: 1.0.0 }
actions:
  - target: $.components.schemas.WorkflowLaunchRequest.properties
    update:
      nextflowVersion: { type: string, description: Nextflow version to launch with. }
  - target: $.components.schemas.LaunchDbDto.properties
    update:
      nextflowVersion: { type: string }
  - target: $.paths
    update:
      /simulated/things:
        get:
          operationId: ListSimulatedThings
          responses:
            "200":
              description: OK
              content:
                application/json:
                  schema: { type: object, properties: { things: { type: array, items: { type: string } } } }
`;

async function simulatedRelease(dir: string): Promise<string> {
  const text = (await readRelease("1.181.0")).replace(/^(\s+version:\s*)1\.181\.0$/m, `$1${NEXT}`);
  expect(text).toContain(`version: ${NEXT}`);
  const file = path.join(dir, `seqera-api-${NEXT}.yml`);
  await writeFile(file, text);
  return file;
}

describe(`a newer release (${NEXT}, simulated) with a new launch field and a new operation`, () => {
  test("schema:update lists the field under what the helpers now do with it", async () => {
    const root = await tempProject("1.181.0");
    await writeFile(path.join(root, "schema", "overlays", "99-next.yaml"), SIMULATED_OVERLAY);
    const source = await simulatedRelease(await tempDir());
    const result = await runSchemaUpdate({ root, argv: ["--source", source], log: () => {} });
    expect(result).toMatchObject({ from: "1.181.0", to: NEXT });
    const report = result.report!;
    expect(report).toContain("## What the helpers now do with changed fields (1)");
    expect(report).toContain(
      "- `WorkflowLaunchRequest.nextflowVersion`: added; toLaunchRequest " +
        "(src/automation/launch.ts) copies it: the default for launch (A saved launch",
    );
    expect(report).toContain("- `GET /simulated/things`: operation added (ListSimulatedThings)");
    // Generated from the moved pin, the rule decided: the field is copied.
    const copies = await readFile(path.join(root, "generated", "copies.ts"), "utf8");
    expect(copies).toContain('"nextflowVersion"');
  }, 180_000);

  test("regenerates with no code change: src/ and the tests type-check, the helper copies the field", async () => {
    const work = await tempDir("release-next-");
    const source = await simulatedRelease(work);
    const copy = path.join(work, "tree");
    await copyTree(ROOT, copy, source);
    await mkdir(path.join(copy, "schema", "overlays"), { recursive: true });
    await writeFile(path.join(copy, "schema", "overlays", "99-next.yaml"), SIMULATED_OVERLAY);
    expect(await generateIn(copy, source)).toBeUndefined();
    expect(await readFile(path.join(copy, "generated", "version.ts"), "utf8")).toContain(
      `SCHEMA_VERSION = "${NEXT}"`,
    );
    expect(await typeErrorsIn(copy)).toEqual([]);

    // The copy's own code, run: the new field is relaunched, the new operation is known.
    const probe = path.join(copy, "probe.ts");
    await writeFile(
      probe,
      `import { toLaunchRequest } from "./src/automation/launch.js";
import { requireOperation } from "./src/openapi/require-operation.js";
const launch = { pipeline: "https://github.com/nf-core/rnaseq", nextflowVersion: "24.10.4",
  computeEnv: { id: "ce1" }, dateCreated: "2026-01-01T00:00:00Z" };
console.log(JSON.stringify({
  request: toLaunchRequest(launch as never),
  operation: requireOperation("GET /simulated/things").operationId,
}));
`,
    );
    const ran = await run(process.execPath, ["--import", "tsx", probe], copy);
    expect(ran.code, ran.stderr).toBe(0);
    expect(JSON.parse(ran.stdout)).toEqual({
      request: {
        pipeline: "https://github.com/nf-core/rnaseq",
        nextflowVersion: "24.10.4",
        computeEnvId: "ce1",
      },
      operation: "ListSimulatedThings",
    });
  }, 600_000);
});
