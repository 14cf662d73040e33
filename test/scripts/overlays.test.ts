import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { JSONPath } from "jsonpath-plus";
import { afterAll, beforeAll, describe, expect, expectTypeOf, test } from "vitest";
import YAML from "yaml";
import type { components, operations } from "../../generated/schema.js";
import { loadOverlays } from "../../scripts/schema/overlay.js";
import { parseSchema, SchemaInputError } from "../../scripts/schema/parse.js";
import type { OpenApiDocument } from "../../src/openapi/document.js";
import { prepareSchema } from "../../scripts/schema/pipeline.js";
import { sha256 } from "../../scripts/schema/source.js";
import { schemaUsage } from "../../scripts/schema/usage.js";
import { mirrorFile, readRelease, removeTempDirs, ROOT, tempProject } from "../helpers/schema.js";

type Schemas = components["schemas"];
let generated: OpenApiDocument;

beforeAll(async () => {
  // What `npm run generate` (run by npm ci) wrote from the pinned release.
  generated = JSON.parse(await readFile(path.join(ROOT, "generated", "openapi.json"), "utf8"));
});

afterAll(removeTempDirs);

const schema = (doc: OpenApiDocument, name: string): Record<string, any> =>
  doc.components!.schemas![name] as Record<string, any>;

const loadOverlay = async (file: string) => {
  const all = await loadOverlays(path.join(ROOT, "schema", "overlays"));
  return all.find((o) => o.file === file)!;
};

const obtained = async (version: string) => {
  const text = await readRelease(version);
  return { text, origin: mirrorFile(version), sha256: sha256(text) };
};

describe("each overlay's fix reaches the generated types of the pinned release", () => {
  test("10-servers: the public servers are declared", () => {
    expect(generated.servers?.map((s) => s.url)).toEqual([
      "https://api.cloud.seqera.io",
      "https://api.tower.nf",
    ]);
  });

  test("20-nullable: every listed property may be null, and only what the rule cannot reach is listed", async () => {
    expectTypeOf<Schemas["Workflow"]["start"]>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<Schemas["Workflow"]["errorMessage"]>().toEqualTypeOf<string | null | undefined>();
    const overlay = await loadOverlay("20-nullable.yaml");
    const usage = schemaUsage(generated);
    expect(overlay.actions.length).toBeGreaterThan(0);
    for (const action of overlay.actions) {
      const [node] = JSONPath({ path: action.target, json: generated, wrap: true }) as unknown[];
      expect(node, action.target).toMatchObject({ nullable: true });
      // A schema a response reaches is the rule's (nullable-unless-required), not a list's.
      const name = /^\$\.components\.schemas\.([^.]+)\./.exec(action.target)![1]!;
      expect(usage.get(name), action.target).toEqual({ request: true, response: false });
    }
  });

  test("25-required-omitted: the counters and checkpoint fields the service omits are optional", () => {
    expectTypeOf<Schemas["ProcessLoad"]["aborted"]>().toEqualTypeOf<number | null | undefined>();
    expectTypeOf<Schemas["WorkflowLoad"]["retries"]>().toEqualTypeOf<number | null | undefined>();
    // Required properties the service always sends stay required and non-null.
    expectTypeOf<Schemas["ProcessLoad"]["cached"]>().toEqualTypeOf<number>();
    expect(schema(generated, "ProcessLoad").required).not.toContain("aborted");
    expect(schema(generated, "ProcessLoad").required).toContain("cached");
    expect(schema(generated, "WorkflowLoad").required).not.toContain("retries");
    expect(schema(generated, "DataStudioCheckpointDto").required).toEqual([
      "author",
      "dateCreated",
      "dateSaved",
      "id",
      "name",
    ]);
  });

  test("35-forged-resources: items map a resource kind to a string", () => {
    expectTypeOf<
      NonNullable<Schemas["AwsBatchConfig"]["forgedResources"]>[number]
    >().toEqualTypeOf<{
      [key: string]: string;
    }>();
    expect(schema(generated, "AwsBatchConfig").properties.forgedResources.items).toEqual({
      type: "object",
      additionalProperties: { type: "string" },
    });
  });

  test("36-run-params: a run's parameters take any JSON value", () => {
    expectTypeOf<NonNullable<Schemas["WorkflowDbDto"]["params"]>>().toEqualTypeOf<{
      [key: string]: unknown;
    }>();
    for (const name of ["WorkflowDbDto", "Workflow", "LaunchActionRequest"]) {
      expect(schema(generated, name).properties.params.additionalProperties, name).toEqual({});
    }
  });

  test("45-undeclared-properties: what the service sends is declared", async () => {
    expectTypeOf<Schemas["WorkflowDbDto"]["peakLoadCpus"]>().toEqualTypeOf<
      number | null | undefined
    >();
    expectTypeOf<Schemas["LaunchDbDto"]["resumeDir"]>().toEqualTypeOf<string | null | undefined>();
    const overlay = await loadOverlay("45-undeclared-properties.yaml");
    for (const action of overlay.actions) {
      const [added] = Object.keys(action.update as object);
      const [props] = JSONPath({ path: action.target, json: generated, wrap: true }) as Record<
        string,
        unknown
      >[];
      expect(props, `${action.target}.${added}`).toHaveProperty([added!]);
    }
  });

  test("30-task-exit: Task.exit is a number, a string or null", () => {
    expectTypeOf<Schemas["Task"]["exit"]>().toEqualTypeOf<number | string | null | undefined>();
    expect(schema(generated, "Task").properties.exit).toMatchObject({
      nullable: true,
      oneOf: [{ type: "integer" }, { type: "string" }],
    });
  });

  test("40-log-page-entries: LogPage.entries is an array of strings or null", () => {
    expectTypeOf<Schemas["LogPage"]["entries"]>().toEqualTypeOf<string[] | null | undefined>();
    expect(schema(generated, "LogPage").properties.entries).toMatchObject({
      type: "array",
      items: { type: "string" },
    });
  });

  test('50-empty-patterns: no `pattern: ""` is left', async () => {
    expect(await readRelease("1.181.0")).toMatch(/^\s+pattern: ""$/m);
    expect(JSONPath({ path: "$..pattern", json: generated }) as unknown[]).not.toContain("");
  });
});

test("70-query-array-items: query arrays carry strings, not objects", () => {
  type Query<Op extends keyof operations> = NonNullable<operations[Op]["parameters"]["query"]>;
  expectTypeOf<Query<"GenerateDownloadScript">["dirs"]>().toEqualTypeOf<string[] | undefined>();
  expectTypeOf<Query<"ExploreDataLinkTree">["paths"]>().toEqualTypeOf<string[] | undefined>();
  const objectItems = JSONPath({
    path: "$.paths.*.*.parameters[?(@.in === 'query' && @.schema.type === 'array')].schema.items.type",
    json: generated,
  }) as unknown[];
  expect(objectItems.length).toBeGreaterThan(0);
  expect(objectItems).not.toContain("object");
});

test("80-get-request-body: no GET offers a request body", () => {
  expectTypeOf<
    operations["FindDataStudiosWorkspaceSettings"]["requestBody"]
  >().toEqualTypeOf<undefined>();
  const bodies = JSONPath({ path: "$.paths.*.get.requestBody", json: generated }) as unknown[];
  expect(bodies).toEqual([]);
});

describe("60-java-patterns applies to the releases that have the Java pattern only", () => {
  const JAVA = "[\\p{Graph}&&[^/]]\\p{Graph}+";

  test("1.85.0: Launch.schemaName gets the portable equivalent", async () => {
    const raw = YAML.parse(await readRelease("1.85.0")) as OpenApiDocument;
    expect(schema(raw, "Launch").properties.schemaName.pattern).toBe(JAVA);
    const root = await tempProject("1.85.0");
    const prepared = await prepareSchema(await obtained("1.85.0"), root, {
      strict: true,
    });
    expect(prepared.overlays.applied).toContain("60-java-patterns.yaml");
    const pattern = schema(prepared.doc, "Launch").properties.schemaName.pattern as string;
    const regex = new RegExp(pattern, "u");
    expect(["my-schema", "a_b.c", "x1"].filter((s) => regex.test(s))).toHaveLength(3);
    expect(["/abs", "a", "has space", "tab\tx", "é1"].filter((s) => regex.test(s))).toEqual([]);
  });

  test("1.181.0: no Java pattern left, the overlay is skipped, not stale", async () => {
    const raw = await readRelease("1.181.0");
    expect(raw).not.toContain("\\p{Graph}");
    const prepared = await prepareSchema(await obtained("1.181.0"), await tempProject("1.181.0"), {
      strict: true,
    });
    expect(prepared.overlays.skipped).toContainEqual({
      file: "60-java-patterns.yaml",
      target:
        "$.components.schemas.*.properties[?(@.pattern === '[\\\\p{Graph}&&[^/]]\\\\p{Graph}+')]",
      releases: "<1.109.0",
    });
    expect(prepared.overlays.applied).not.toContain("60-java-patterns.yaml");
  });
});

test("55-binary-downloads: before 1.181.0, downloads are declared as the files the service sends", async () => {
  const raw = YAML.parse(await readRelease("1.140.0")) as OpenApiDocument;
  const content = (doc: OpenApiDocument, route: string) =>
    Object.keys((doc.paths[route]!.get as any).responses["200"].content);
  expect(content(raw, "/workflow/{workflowId}/download")).toEqual(["application/json"]);
  const prepared = await prepareSchema(await obtained("1.140.0"), await tempProject("1.140.0"), {
    strict: true,
  });
  expect(content(prepared.doc, "/workflow/{workflowId}/download")).toEqual(["text/plain"]);
  expect(content(prepared.doc, "/workflow/{workflowId}/download/{taskId}")).toEqual(["text/plain"]);
  expect(content(prepared.doc, "/avatars/{avatarId}")).toEqual(["application/octet-stream"]);
  expect(content(prepared.doc, "/datasets/{datasetId}/v/{version}/n/{fileName}")).toEqual([
    "application/octet-stream",
  ]);
});

describe("an overlay action that matches nothing", () => {
  const STALE =
    'overlay: 1.0.0\nx-releases: "*"\ninfo: { title: stale, version: 1.0.0 }\nactions:\n' +
    "  - target: $.components.schemas.NoSuchSchema.properties.id\n" +
    "    description: fixed upstream long ago\n    update: { nullable: true }\n";

  test("is an error for the pinned release, naming the file and target", async () => {
    const root = await tempProject("1.181.0");
    await writeFile(path.join(root, "schema", "overlays", "99-stale.yaml"), STALE);
    await expect(prepareSchema(await obtained("1.181.0"), root, { strict: true })).rejects.toThrow(
      new SchemaInputError(
        "1 overlay action(s) match nothing in release 1.181.0 (stale fix? correct or remove it in " +
          "schema/overlays/): 99-stale.yaml: $.components.schemas.NoSuchSchema.properties.id",
      ),
    );
  });

  test("is reported, not thrown, for another release", async () => {
    const root = await tempProject("1.181.0");
    await writeFile(path.join(root, "schema", "overlays", "99-stale.yaml"), STALE);
    const prepared = await prepareSchema(await obtained("1.140.0"), root, {
      strict: false,
    });
    expect(prepared.overlays.unmatched).toEqual([
      {
        file: "99-stale.yaml",
        target: "$.components.schemas.NoSuchSchema.properties.id",
        description: "fixed upstream long ago",
      },
    ]);
  });
});

test("the parsed releases keep their defects, so each fix above is really needed", async () => {
  const doc = parseSchema(await readRelease("1.181.0"), "1.181.0");
  expect(doc.servers).toBeUndefined();
  expect(schema(doc, "Task").properties.exit).toMatchObject({
    type: "integer",
  });
  expect(schema(doc, "LogPage").properties.entries).toEqual({
    $ref: "#/components/schemas/Iterator_String_",
  });
  expect(schema(doc, "Workflow").properties.start.nullable).toBeUndefined();
  expect(schema(doc, "ProcessLoad").required).toContain("aborted");
  expect(schema(doc, "AwsBatchConfig").properties.forgedResources.items).toEqual({
    type: "object",
    additionalProperties: { type: "object" },
  });
  expect(schema(doc, "WorkflowDbDto").properties.params.additionalProperties).toEqual({
    type: "object",
  });
  expect(schema(doc, "WorkflowDbDto").properties.peakLoadCpus).toBeUndefined();
  const download = doc.paths["/data-links/{dataLinkId}/script/download"]!.get as any;
  expect(download.parameters.find((p: any) => p.name === "dirs").schema.items.type).toBe("object");
  const studios = doc.paths["/orgs/{orgId}/workspaces/{workspaceId}/settings/studios"]!.get as any;
  expect(studios.requestBody).toBeDefined();
});
