import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { JSONPath } from "jsonpath-plus";
import { afterAll, beforeAll, describe, expect, expectTypeOf, test } from "vitest";
import YAML from "yaml";
import type { components, operations } from "../generated/schema.js";
import { loadOverlays } from "../scripts/schema/overlay.js";
import { parseSchema, SchemaInputError } from "../scripts/schema/parse.js";
import type { OpenApiDocument } from "../src/openapi/document.js";
import { prepareSchema } from "../scripts/schema/pipeline.js";
import { sha256 } from "../scripts/schema/source.js";
import { mirrorFile, readRelease, removeTempDirs, ROOT, tempProject } from "./schema-helpers.js";

type Schemas = components["schemas"];
let generated: OpenApiDocument;

beforeAll(async () => {
  // What `npm run generate` (run by npm ci) wrote from the pinned release.
  generated = JSON.parse(await readFile(path.join(ROOT, "generated", "openapi.json"), "utf8"));
});

afterAll(removeTempDirs);

const schema = (doc: OpenApiDocument, name: string): Record<string, any> =>
  doc.components!.schemas![name] as Record<string, any>;

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

  test("20-nullable: every listed property may be null", async () => {
    expectTypeOf<Schemas["Workflow"]["start"]>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<Schemas["Workflow"]["errorMessage"]>().toEqualTypeOf<string | null | undefined>();
    const [overlay] = await loadOverlays(path.join(ROOT, "schema", "overlays")).then((all) =>
      all.filter((o) => o.file === "20-nullable.yaml"),
    );
    expect(overlay!.actions.length).toBeGreaterThan(100);
    for (const action of overlay!.actions) {
      const [node] = JSONPath({
        path: action.target,
        json: generated,
        wrap: true,
      }) as unknown[];
      expect(node, action.target).toMatchObject({ nullable: true });
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
    expect(prepared.overlays.skipped).toEqual(["60-java-patterns.yaml"]);
  });
});

describe("an overlay action that matches nothing", () => {
  const STALE =
    "overlay: 1.0.0\ninfo: { title: stale, version: 1.0.0 }\nactions:\n" +
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
  const download = doc.paths["/data-links/{dataLinkId}/script/download"]!.get as any;
  expect(download.parameters.find((p: any) => p.name === "dirs").schema.items.type).toBe("object");
  const studios = doc.paths["/orgs/{orgId}/workspaces/{workspaceId}/settings/studios"]!.get as any;
  expect(studios.requestBody).toBeDefined();
});
