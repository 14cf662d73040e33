import { describe, expect, test } from "vitest";
import { diffDocuments, type DiffEntry } from "../../scripts/schema/diff.js";
import { renderReport } from "../../scripts/schema/diff-report.js";
import type { OpenApiDocument, SchemaObject } from "../../src/openapi/document.js";

/**
 * The breaking rules on small documents: one operation that sends `Pet` and returns `Pet` plus
 * `Status`, so each rule is seen from the request side, the response side, or both.
 */
function doc(
  schemas: Record<string, SchemaObject>,
  op: Record<string, unknown> = {},
): OpenApiDocument {
  return {
    openapi: "3.0.1",
    info: { version: "1" },
    paths: {
      "/pets": {
        post: {
          operationId: "CreatePet",
          requestBody: {
            content: { "application/json": { schema: { $ref: "#/components/schemas/NewPet" } } },
          },
          responses: {
            "200": {
              content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } },
            },
          },
          ...op,
        },
      },
    },
    components: { schemas },
  };
}

const base = {
  NewPet: { type: "object", properties: { name: { type: "string" } } },
  Pet: {
    type: "object",
    properties: { name: { type: "string" }, status: { $ref: "#/components/schemas/Status" } },
  },
  Status: { type: "string", enum: ["ALIVE"] },
};

const change = (patch: Record<string, unknown>, op?: Record<string, unknown>): DiffEntry[] =>
  diffDocuments(doc(base), doc({ ...base, ...patch }, op));

describe("diffDocuments judges each change for a TypeScript user", () => {
  test("request properties: a required one breaks, an optional one does not", () => {
    const props = { name: { type: "string" }, tag: { type: "string" }, age: { type: "integer" } };
    expect(change({ NewPet: { type: "object", required: ["age"], properties: props } })).toEqual([
      { kind: "property-added", location: "NewPet.age", detail: "added, required", breaking: true },
      {
        kind: "property-added",
        location: "NewPet.tag",
        detail: "added, optional",
        breaking: false,
      },
    ]);
  });

  test("response properties: added is compatible, removed and retyped break", () => {
    const Pet = {
      type: "object",
      properties: { name: { type: "integer", format: "int64" }, id: { type: "string" } },
    };
    expect(change({ Pet })).toEqual([
      {
        kind: "property-removed",
        location: "Pet.status",
        detail: "removed; reads of it no longer compile",
        breaking: true,
      },
      { kind: "property-added", location: "Pet.id", detail: "added, optional", breaking: false },
      { kind: "retyped", location: "Pet.name", detail: "string → number", breaking: true },
    ]);
  });

  test("an int32 → int64 format change is invisible in the types and not reported", () => {
    const before = doc({
      ...base,
      NewPet: { type: "object", properties: { n: { type: "integer", format: "int32" } } },
    });
    const after = doc({
      ...base,
      NewPet: { type: "object", properties: { n: { type: "integer", format: "int64" } } },
    });
    expect(diffDocuments(before, after)).toEqual([]);
  });

  test("enum values: added to a response breaks exhaustive switches; removed always breaks", () => {
    expect(
      change({ Status: { type: "string", enum: ["DEAD"] } }).map((e) => [e.kind, e.breaking]),
    ).toEqual([
      ["enum-value-removed", true],
      ["enum-value-added", true],
    ]);
  });

  test("enum values added to a request-only schema are compatible", () => {
    const before = doc({ ...base, NewPet: { type: "string", enum: ["A"] } });
    const after = doc({ ...base, NewPet: { type: "string", enum: ["A", "B"] } });
    expect(diffDocuments(before, after)).toEqual([
      { kind: "enum-value-added", location: "NewPet", detail: '"B" added', breaking: false },
    ]);
  });

  test("nullability: breaking for readers when added, for writers when removed", () => {
    const nullableName = {
      type: "object",
      properties: { name: { type: "string", nullable: true } },
    };
    expect(
      change({
        Pet: {
          ...nullableName,
          properties: { ...base.Pet.properties, ...nullableName.properties },
        },
        NewPet: nullableName,
      }),
    ).toEqual([
      {
        kind: "nullability-changed",
        location: "NewPet.name",
        detail: "may now be null",
        breaking: false,
      },
      {
        kind: "nullability-changed",
        location: "Pet.name",
        detail: "may now be null",
        breaking: true,
      },
    ]);
  });

  test("parameters: required added breaks, optional does not; operationId renames break", () => {
    const parameters = [
      { in: "query", name: "workspaceId", schema: { type: "integer" } },
      { in: "query", name: "dryRun", required: true, schema: { type: "boolean" } },
    ];
    expect(change({}, { parameters, operationId: "AddPet" })).toEqual([
      {
        kind: "operation-renamed",
        location: "POST /pets",
        detail: 'operationId CreatePet → AddPet; operations["CreatePet"] no longer exists',
        breaking: true,
      },
      {
        kind: "parameter-added",
        location: "POST /pets query parameter dryRun",
        detail: "added, required",
        breaking: true,
      },
      {
        kind: "parameter-added",
        location: "POST /pets query parameter workspaceId",
        detail: "added, optional",
        breaking: false,
      },
    ]);
  });

  test("the report puts breaking changes first and names each", () => {
    const report = renderReport({
      from: "1",
      to: "2",
      entries: change({
        Status: { type: "string", enum: ["ALIVE", "DEAD"] },
        Owner: { type: "object" },
      }),
      staleOverlays: [],
      rules: [{ name: "r", effect: "made nullable", touched: ["Owner.a", "Pet.b", "Pet.c"] }],
      previousRules: [{ name: "r", effect: "made nullable", touched: ["Pet.b", "Pet.c"] }],
    });
    expect(report).toContain(
      "## Breaking for TypeScript users (1)\n\n### Enum values\n\n" +
        '- `Status`: "DEAD" added; exhaustive switches over responses need a case\n\n' +
        "## Compatible (1)\n\n### Schemas\n\n- `Owner`: added\n",
    );
    // What the rules did in the new release, which no overlay lists.
    expect(report).toContain(
      "- r: made nullable 3 properties in 2 (2 in 1; 1 not touched there)\n",
    );
  });
});
