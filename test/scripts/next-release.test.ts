/**
 * A release after the pinned one, simulated, taken by the schema pipeline with no code change:
 * the tree is regenerated and type-checked whole, so this file is the release matrix's (`npm run
 * test:releases` runs it once, beside every published release), not `npm test`'s.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { runSchemaUpdate } from "../../scripts/schema/run-update.js";
import { copyTree, generateIn, run, typeErrorsIn } from "../../scripts/schema/releases.js";
import { readRelease, removeTempDirs, ROOT, tempDir, tempProject } from "../helpers/schema.js";

afterAll(removeTempDirs);

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
