import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { SchemaInputError } from "../../scripts/schema/parse.js";
import { prepareSchema } from "../../scripts/schema/pipeline.js";
import { applyRules, loadRules, rulesFile } from "../../scripts/schema/rules.js";
import { nullableUnlessRequired } from "../../scripts/schema/rules/nullable-unless-required.js";
import { sha256 } from "../../scripts/schema/source.js";
import type { OpenApiDocument, SchemaObject } from "../../src/openapi/document.js";
import { NULLABLE_BY_RULE } from "../../src/openapi/extensions.js";
import {
  mirrorFile,
  readRelease,
  removeTempDirs,
  ROOT,
  tempDir,
  tempProject,
} from "../helpers/schema.js";

afterAll(removeTempDirs);

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

/** GET /pets answers `Page`; POST /pets sends `NewPet` (request only). */
function doc(schemas: Record<string, SchemaObject>, inline?: SchemaObject): OpenApiDocument {
  return {
    openapi: "3.0.1",
    info: { version: "1" },
    paths: {
      "/pets": {
        get: { responses: { "200": json(ref("Page")), "400": json(inline ?? ref("Error")) } },
        post: { requestBody: json(ref("NewPet")), responses: { "204": {} } },
      },
    },
    components: { schemas },
  };
}

const schemas = (): Record<string, SchemaObject> => ({
  Page: {
    type: "object",
    required: ["items"],
    properties: { items: { type: "array", items: ref("Pet") }, next: { type: "string" } },
  },
  Pet: {
    type: "object",
    required: ["id"],
    properties: {
      id: { type: "integer" },
      status: ref("Status"),
      kind: { type: "string", enum: ["CAT", "DOG"] },
      owner: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      born: { type: "string", format: "date-time", nullable: true },
      password: { type: "string", writeOnly: true },
      extra: { description: "anything" },
      age: { oneOf: [{ type: "integer" }, { type: "string" }] },
    },
  },
  Status: { type: "string", enum: ["ALIVE"] },
  Error: { type: "object", properties: { message: { type: "string" } } },
  NewPet: { type: "object", properties: { name: { type: "string" } } },
});

describe("nullable-unless-required", () => {
  const d = doc(schemas());
  const touched = nullableUnlessRequired(d);
  const pet = d.components.schemas.Pet!.properties as Record<string, SchemaObject>;

  test("makes every optional property of a schema a response reaches nullable, and says which", () => {
    expect(touched).toEqual([
      "Error.message",
      "Page.next",
      "Pet.age",
      "Pet.kind",
      "Pet.owner",
      "Pet.status",
    ]);
    expect(pet.kind).toEqual({
      type: "string",
      enum: ["CAT", "DOG"],
      nullable: true,
      [NULLABLE_BY_RULE]: true,
    });
    expect(pet.age).toMatchObject({ nullable: true, [NULLABLE_BY_RULE]: true });
  });

  test("wraps a $ref in anyOf, the form openapi-typescript renders as `| null`", () => {
    expect(pet.status).toEqual({
      anyOf: [ref("Status")],
      nullable: true,
      [NULLABLE_BY_RULE]: true,
    });
  });

  test("leaves required, already nullable, writeOnly and typeless properties alone", () => {
    expect(pet.id).toEqual({ type: "integer" });
    expect((d.components.schemas.Page!.properties as SchemaObject).items).not.toHaveProperty(
      "nullable",
    );
    expect(pet.born).toEqual({ type: "string", format: "date-time", nullable: true });
    expect(pet.password).toEqual({ type: "string", writeOnly: true });
    expect(pet.extra).toEqual({ description: "anything" });
    // Inline objects keep their own required list: owner may be null, owner.name may not.
    expect((pet.owner!.properties as SchemaObject).name).toEqual({ type: "string" });
  });

  test("leaves schemas only requests reach alone", () => {
    expect(d.components.schemas.NewPet).toEqual(schemas().NewPet);
  });

  test("reaches response schemas written inline, and required names of an enclosing allOf", () => {
    const inline = {
      required: ["code"],
      allOf: [
        { type: "object", properties: { code: { type: "integer" }, hint: { type: "string" } } },
      ],
    };
    expect(nullableUnlessRequired(doc(schemas(), inline))).toContain("GET /pets 400.hint");
    expect(inline.allOf[0]!.properties.code).toEqual({ type: "integer" });
  });

  test("is idempotent: a second run touches nothing", () => {
    expect(nullableUnlessRequired(d)).toEqual([]);
  });
});

describe("schema/rules.yaml", () => {
  test("declares the rules that run, each with its reason", async () => {
    const rules = await loadRules(rulesFile(ROOT));
    expect(rules.map((r) => r.name)).toEqual(["nullable-unless-required"]);
    expect(rules[0]!.reason).toMatch(/Jackson/);
    expect(applyRules(doc(schemas()), rules)).toEqual([
      { name: "nullable-unless-required", effect: "made nullable", touched: expect.any(Array) },
    ]);
  });

  test.each([
    ["rules:\n  - name: no-such-rule\n    reason: because\n", 'unknown rule "no-such-rule"'],
    [
      "rules:\n  - name: nullable-unless-required\n",
      "rule nullable-unless-required gives no reason",
    ],
    ["rule: []\n", "has no 'rules' list"],
  ])("a bad declaration is an error before anything is generated: %j", async (text, message) => {
    const file = path.join(await tempDir(), "rules.yaml");
    await writeFile(file, text);
    const failure = await loadRules(file).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(SchemaInputError);
    expect((failure as Error).message).toContain(message);
  });

  test("a missing declaration is an error, not a build without the rules", async () => {
    const failure = await loadRules(path.join(await tempDir(), "rules.yaml")).catch((e) => e);
    expect(failure).toBeInstanceOf(SchemaInputError);
    expect((failure as Error).message).toMatch(/rules\.yaml is missing/);
  });
});

test("the pipeline runs the rules after the overlays and reports what they touched", async () => {
  const text = await readRelease("1.181.0");
  const prepared = await prepareSchema(
    { text, origin: mirrorFile("1.181.0"), sha256: sha256(text) },
    await tempProject("1.181.0"),
    { strict: true },
  );
  const [rule] = prepared.rules;
  expect(rule!.name).toBe("nullable-unless-required");
  // Among them the nullable fields of the schemas responses reach, which no overlay lists.
  expect(rule!.touched).toEqual(
    expect.arrayContaining([
      "WorkflowDbDto.stats",
      "WorkflowMaxDbDto.logFile",
      "ComputeEnv_ComputeConfig_.description",
      "DataLinkDto.status",
      "OrganizationDbDto.memberRole",
      // Made optional by overlay 25 first, then nullable like every optional property.
      "ProcessLoad.aborted",
    ]),
  );
  expect(rule!.touched).not.toContain("ProcessLoad.cached");
  console.log(`nullable-unless-required: ${rule!.touched.length} properties in 1.181.0`);
});
