import { expect, test } from "vitest";
import { FAMILIES } from "../../src/model/families.js";
import type { Family } from "../../src/model/family.js";
import { idOf, listShape, nameOf } from "../../src/model/derive.js";
import { hasOperation } from "../../src/openapi/require-operation.js";

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
