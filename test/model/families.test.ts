import { expect, test } from "vitest";
import { FAMILIES } from "../../src/model/families.js";
import type { Family } from "../../src/model/family.js";
import { idOf, listShape, nameOf } from "../../src/model/derive.js";
import { hasOperation } from "../../src/openapi/require-operation.js";
import { deref, successResponse, type OpenApiDocument } from "../../src/openapi/document.js";
import { loadDocument } from "../../src/openapi/operations-document.js";

const families = Object.entries(FAMILIES) as [string, Family][];

test("every family's operations are in the release's table, and its list's items are known", () => {
  for (const [name, family] of families) {
    for (const key of Object.values(family.operations)) expect(hasOperation(key), key).toBe(true);
    expect(listShape(family).items, name).toMatch(/^[a-zA-Z]+$/);
    for (const field of family.updatable ?? []) expect(family.fields, name).toContain(field);
  }
});

test("what the table says is derived, not restated: paging, search by name, shared visibility", () => {
  const searched = families.filter(([, f]) => listShape(f).searched).map(([name]) => name);
  expect(searched).toEqual(
    expect.arrayContaining(["pipelines", "datasets", "data-links", "labels"]),
  );
  expect(searched).not.toContain("compute-envs");
  expect(listShape(FAMILIES.pipelines)).toMatchObject({ paged: true, shared: true });
  expect(listShape(FAMILIES["compute-envs"])).toMatchObject({
    paged: false,
    items: "computeEnvs",
    shared: false,
  });
});

test("ids are read as text, names as given", () => {
  expect(idOf(FAMILIES.pipelines, { pipelineId: 9007199254740993n })).toBe("9007199254740993");
  expect(idOf(FAMILIES.organizations, { orgId: 7 })).toBe("7");
  expect(idOf(FAMILIES.credentials, { id: null })).toBe("");
  expect(nameOf(FAMILIES.studios, { name: "lab" })).toBe("lab");
  expect(nameOf(FAMILIES.studios, {})).toBe("");
});

/** The schema of `key` in an object schema, through $refs and the nullability rule's anyOf. */
function property(doc: OpenApiDocument, node: unknown, key: string): unknown {
  const schema = deref(doc, node);
  if (!schema) return undefined;
  const own = (schema.properties as Record<string, unknown> | undefined)?.[key];
  if (own !== undefined) return own;
  const parts = [...((schema.allOf as unknown[]) ?? []), ...((schema.anyOf as unknown[]) ?? [])];
  return parts.map((part) => property(doc, part, key)).find((found) => found !== undefined);
}

const at = (doc: OpenApiDocument, node: unknown, path: string) =>
  path.split(".").reduce((schema, key) => property(doc, schema, key), node);

test("the ids the client checks are where each family says: its create answer's, its list items'", () => {
  const doc = loadDocument();
  const answer = (key: string) => {
    const [method, path] = key.split(" ") as [string, string];
    return successResponse(doc, { method, path }).schema;
  };
  for (const [name, family] of families) {
    const { create, list } = family.operations;
    if (create)
      expect(at(doc, answer(create), family.created!), `${name}: ${create}`).toBeDefined();
    const items = deref(doc, property(doc, answer(list), listShape(family).items))?.items;
    const listed = family.item ? `${family.item}.${family.id}` : family.id;
    expect(at(doc, items, listed), `${name}: ${list}`).toBeDefined();
  }
  // The check has teeth: a path the answer does not have is not found.
  expect(at(doc, answer("POST /compute-envs"), "id")).toBeUndefined();
});
