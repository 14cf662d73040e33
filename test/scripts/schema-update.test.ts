import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { SchemaInputError } from "../../scripts/schema/parse.js";
import { runGenerate } from "../../scripts/schema/run-generate.js";
import { runSchemaUpdate } from "../../scripts/schema/run-update.js";
import { NULLABLE_BY_RULE } from "../../src/openapi/extensions.js";
import {
  readRelease,
  RELEASES,
  removeTempDirs,
  serve,
  sha256Of,
  tempProject,
  type Route,
  type Served,
} from "../helpers/schema.js";

const LATEST = "/openapi/seqera-api-latest.yml";
const PERMANENT_1_187 = "/seqeralabs/terraform-provider-seqera/c153482/specs/seqera-api-cloud.yaml";
const routes = new Map<string, Route>();
let server: Served;
let root: string;
const logged: string[] = [];

beforeAll(async () => {
  for (const version of RELEASES) {
    routes.set(`/seqera-api-${version}.yml`, { body: await readRelease(version) });
  }
  server = await serve(routes);
  routes.set(PERMANENT_1_187, { body: await readRelease("1.187.0") });
  root = await tempProject("1.85.0", {
    mirror: `${server.url}/seqera-api-{version}.yml`,
    latest: `${server.url}${LATEST}`,
  });
  await writeFile(
    path.join(root, "package.json"),
    JSON.stringify({ name: "consumer-pin", version: "1.85.3" }),
  );
});

afterAll(async () => {
  await server.close();
  await removeTempDirs();
});

const publishLatest = async (version: string): Promise<void> => {
  routes.set(LATEST, { body: await readRelease(version) });
};

const update = (argv: string[] = []) =>
  runSchemaUpdate({ root, argv, env: {}, log: (text) => logged.push(text) });

const readJson = async (file: string): Promise<Record<string, unknown>> =>
  JSON.parse(await readFile(path.join(root, file), "utf8")) as Record<string, unknown>;

/** The report section ("Breaking…" or "Compatible…") a line appears in. */
function sectionOf(report: string, line: string): string | undefined {
  let section: string | undefined;
  for (const current of report.split("\n")) {
    if (current.startsWith("## ")) section = current.slice(3).replace(/ \(\d+\)$/, "");
    if (current === line) return section;
  }
  return undefined;
}

const BREAKING = "Breaking for TypeScript users";
const COMPATIBLE = "Compatible";

// One project stepped through the real releases, so the steps run in order.
describe("schema:update on the real sequence 1.85.0 → 1.102.0 → 1.140.0 → 1.181.0 → 1.187.0", () => {
  test("1.85.0 → 1.102.0 from the published latest URL", async () => {
    await publishLatest("1.102.0");
    // An overlay whose target exists up to 1.102.0: stale against 1.140.0 (next step).
    await writeFile(
      path.join(root, "schema", "overlays", "99-launch.yaml"),
      'overlay: 1.0.0\nx-releases: "*"\ninfo: { title: test, version: 1.0.0 }\nactions:\n' +
        "  - target: $.components.schemas.Launch\n    description: test only\n" +
        "    update: { description: Launch }\n",
    );
    const result = await update();
    expect(result).toMatchObject({ from: "1.85.0", to: "1.102.0" });
    const report = result.report!;
    expect(report.split("\n")[0]).toBe("# Seqera Platform API schema: 1.85.0 → 1.102.0");
    expect(
      sectionOf(
        report,
        "- `POST /compute-envs/{computeEnvId}/disable`: operation added (DisableComputeEnv)",
      ),
    ).toBe(COMPATIBLE);
    expect(sectionOf(report, "- `GET /data-links/{dataLinkId}/download`: operation removed")).toBe(
      BREAKING,
    );
    expect(
      sectionOf(
        report,
        '- `ComputeEnv.Status`: "DISABLED" added; exhaustive switches over responses need a case',
      ),
    ).toBe(BREAKING);
    expect(sectionOf(report, '- `WorkflowQueryAttribute`: "pipelineVersion" added')).toBe(
      COMPATIBLE,
    );
    expect(
      sectionOf(report, "- `GET /workflow query parameter includeTotalSize`: added, optional"),
    ).toBe(COMPATIBLE);
    expect(sectionOf(report, "- `Task.numSpotInterruptions`: added, optional")).toBe(COMPATIBLE);
    expect(
      sectionOf(
        report,
        '- `ParticipantDbDto`: removed; components["schemas"]["ParticipantDbDto"] no longer exists',
      ),
    ).toBe(BREAKING);
    expect(sectionOf(report, "- `DescribeUserResponse.user`: UserDbDto → UserResponseDto")).toBe(
      BREAKING,
    );
    expect(report).not.toContain("stale overlay");
    // Fixed upstream in 1.102.0: the action is left out for it, and the report says so.
    expect(
      sectionOf(
        report,
        "- 65-grid-config-cycle.yaml: `$.components.schemas.AbstractGridConfig.allOf[?(@['$ref'] === '#/components/schemas/ComputeConfig')]` (releases <1.102.0)",
      ),
    ).toBe("Overlay actions outside their releases");
    expect(await readFile(result.reportFile!, "utf8")).toBe(report);
    expect(path.relative(root, result.reportFile!)).toBe(
      "schema/downloads/update-1.85.0-to-1.102.0.md",
    );

    const pin = await readJson("schema/pin.json");
    expect(pin.version).toBe("1.102.0");
    expect(pin.sha256).toBe(sha256Of(await readRelease("1.102.0")));
    // The places are kept; a release schema/published.yaml does not list gets no permanent URL,
    // and the update says so.
    expect(pin).toEqual({
      version: "1.102.0",
      sha256: sha256Of(await readRelease("1.102.0")),
      mirror: `${server.url}/seqera-api-{version}.yml`,
      latest: `${server.url}${LATEST}`,
    });
    expect(logged).toContain(
      "schema:update: schema/published.yaml has no permanent url for release 1.102.0 with this " +
        `sha256: add its row, and its url to schema/pin.json's "permanent", or a clone without ` +
        `the mirror cannot build once ${server.url}${LATEST} serves a newer release`,
    );
    const version = await readFile(path.join(root, "generated", "version.ts"), "utf8");
    expect(version).toContain('SCHEMA_VERSION = "1.102.0"');
    // The package's version follows: 1.102.x is built from release 1.102.0, and the patch, the
    // project's release counter, is kept.
    expect(await readJson("package.json")).toEqual({ name: "consumer-pin", version: "1.102.3" });
    expect(logged.at(-1)).toMatch(/^generated release 1\.102\.0: 203 operations, 354 schemas, /);
  });

  test("1.102.0 → 1.140.0 reports the stale overlay, moves the pin, refuses to generate", async () => {
    await publishLatest("1.140.0");
    const before = await readFile(path.join(root, "generated", "version.ts"), "utf8");
    const failure = await update().catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(SchemaInputError);
    expect((failure as Error).message).toMatch(
      /^1 overlay action\(s\) match nothing in release 1\.140\.0 .*99-launch\.yaml: \$\.components\.schemas\.Launch$/,
    );
    const report = await readFile(
      path.join(root, "schema/downloads/update-1.102.0-to-1.140.0.md"),
      "utf8",
    );
    expect(report).toContain(
      "- stale overlay 99-launch.yaml: `$.components.schemas.Launch` (test only)",
    );
    expect(
      sectionOf(report, '- `Launch`: removed; components["schemas"]["Launch"] no longer exists'),
    ).toBe(BREAKING);
    expect(
      sectionOf(report, "- `ActionResponseDto.message`: removed; reads of it no longer compile"),
    ).toBe(BREAKING);
    expect(
      sectionOf(
        report,
        '- `WorkflowQueryAttribute`: "pipelineVersion" removed; code that sends or compares it no longer compiles',
      ),
    ).toBe(BREAKING);
    expect(
      sectionOf(
        report,
        '- `Credentials.provider`: "github_app" added; exhaustive switches over responses need a case',
      ),
    ).toBe(BREAKING);
    expect(
      sectionOf(
        report,
        "- `GET /launch/{launchId}/datasets response`: DescribeLaunchResponse → ListDatasetVersionsResponse",
      ),
    ).toBe(BREAKING);
    expect((await readJson("schema/pin.json")).version).toBe("1.140.0");
    expect(await readFile(path.join(root, "generated", "version.ts"), "utf8")).toBe(before);

    // The documented way out: fix the overlays, then regenerate from the moved pin.
    await rm(path.join(root, "schema", "overlays", "99-launch.yaml"));
    expect(await runGenerate({ root, env: {} })).toMatch(
      /^generated release 1\.140\.0: 228 operations, 408 schemas, /,
    );
  });

  test("1.140.0 → 1.181.0 from --source", async () => {
    const result = await update(["--source", `${server.url}/seqera-api-1.181.0.yml`]);
    const report = result.report!;
    expect(result).toMatchObject({ from: "1.140.0", to: "1.181.0" });
    // 1.140.0's log downloads are declared text/plain by 55-binary-downloads, as 1.181.0 declares
    // them: no change to report, and the overlay's actions are listed as outside their releases.
    expect(report).not.toContain("GET /workflow/{workflowId}/download response");
    expect(
      sectionOf(
        report,
        "- 55-binary-downloads.yaml: `$.paths['/workflow/{workflowId}/download'].get.responses['200'].content` (releases <1.181.0)",
      ),
    ).toBe("Overlay actions outside their releases");
    expect(
      sectionOf(
        report,
        '- `Action.Source`: "cron" added; exhaustive switches over responses need a case',
      ),
    ).toBe(BREAKING);
    expect(
      sectionOf(
        report,
        "- `Action.EventType`: CronActionEvent added; exhaustive narrowing of responses needs a case",
      ),
    ).toBe(BREAKING);
    expect(report).toMatch(/^22 operations added, 0 removed; 84 schemas added, 0 removed;/m);
    // The rules' reach in the new release, as many properties as the generated document marks.
    const generated = await readFile(path.join(root, "generated", "openapi.json"), "utf8");
    const marked = generated.split(`"${NULLABLE_BY_RULE}": true`).length - 1;
    const [, now, before] =
      /^- nullable-unless-required: made nullable (\d+) properties in 1\.181\.0 \((\d+) in 1\.140\.0; \d+ not touched there\)$/m.exec(
        report,
      )!;
    expect(Number(now)).toBe(marked);
    expect(Number(now)).toBeGreaterThan(Number(before));
    expect((await readJson("schema/pin.json")).version).toBe("1.181.0");
    expect(await readFile(path.join(root, "generated", "version.ts"), "utf8")).toContain(
      '"1.181.0"',
    );
  });

  test("the pinned release again: says so and changes nothing", async () => {
    await publishLatest("1.181.0");
    const pin = await readFile(path.join(root, "schema", "pin.json"), "utf8");
    const result = await update();
    expect(result).toEqual({ from: "1.181.0", to: "1.181.0" });
    expect(logged.at(-1)).toBe(
      `schema:update: ${server.url}${LATEST} is the pinned release 1.181.0; nothing to do`,
    );
    expect(await readFile(path.join(root, "schema", "pin.json"), "utf8")).toBe(pin);
  });

  test("1.181.0 → 1.187.0 by --release: from schema/published.yaml, the pin gains its permanent URL", async () => {
    const url = `${server.url}${PERMANENT_1_187}`;
    const sha = sha256Of(await readRelease("1.187.0"));
    await writeFile(
      path.join(root, "schema", "published.yaml"),
      `1.181.0:\n  sha256: ${sha256Of(await readRelease("1.181.0"))}\n  url: https://example.org/x.yaml\n` +
        `1.187.0:\n  sha256: ${sha}\n  url: ${url}\n`,
    );
    server.requests.splice(0);
    const result = await update(["--release", "1.187.0"]);
    expect(result).toMatchObject({ from: "1.181.0", to: "1.187.0" });
    // The mirror first (it has no 1.187.0 here), then the permanent URL; the latest URL not asked.
    expect(server.requests.slice(0, 2)).toEqual(["/seqera-api-1.187.0.yml", PERMANENT_1_187]);
    expect(server.requests).not.toContain(LATEST);
    expect(
      sectionOf(result.report!, "- `GET /platform/versions`: operation added (NextflowVersions)"),
    ).toBe(COMPATIBLE);
    expect(
      sectionOf(
        result.report!,
        '- `AuditEventType`: "scim_token_created" added; exhaustive switches over responses need a case',
      ),
    ).toBe(BREAKING);
    expect(await readJson("schema/pin.json")).toEqual({
      version: "1.187.0",
      sha256: sha,
      mirror: `${server.url}/seqera-api-{version}.yml`,
      permanent: url,
      latest: `${server.url}${LATEST}`,
    });
  });

  test("--release of a release schema/published.yaml does not list: names those it does", async () => {
    await expect(update(["--release", "1.198.0"])).rejects.toThrow(
      "--release 1.198.0 is not in schema/published.yaml (known: 1.181.0, 1.187.0); add its row or use --source",
    );
  });
});

test("without the pinned release at hand there is no report and the pin stays", async () => {
  routes.set("/moved-on.yml", { body: await readRelease("1.140.0") });
  const project = await tempProject("1.102.0", {
    mirror: `${server.url}/moved-on.yml`,
    latest: `${server.url}/moved-on.yml`,
  });
  const pin = await readFile(path.join(project, "schema", "pin.json"), "utf8");
  const failure = runSchemaUpdate({ root: project, env: {}, log: () => undefined });
  await expect(failure).rejects.toThrow(
    `could not obtain schema release 1.102.0 (sha256 98d6b538c88e…): ` +
      `${server.url}/moved-on.yml serves release 1.140.0 (sha256 483bf2d6aeb7…); ` +
      `${server.url}/moved-on.yml serves release 1.140.0 (sha256 483bf2d6aeb7…). ` +
      `The report needs the pinned release: put its file at ${server.url}/moved-on.yml`,
  );
  expect(await readFile(path.join(project, "schema", "pin.json"), "utf8")).toBe(pin);
});
