import { expect, test } from "vitest";
import { isWorkspaceId, parseWorkspaceRef } from "../../src/core/workspace-ref.js";

test("one rule: digits without a leading zero are an id, org/workspace a name, the rest neither", () => {
  expect(parseWorkspaceRef("42")).toEqual({ id: "42" });
  expect(parseWorkspaceRef(" 42 ")).toEqual({ id: "42" });
  expect(parseWorkspaceRef(42)).toEqual({ id: "42" });
  expect(parseWorkspaceRef("9007199254740993")).toEqual({ id: "9007199254740993" });
  expect(parseWorkspaceRef("acme/genomics-1")).toEqual({
    organization: "acme",
    workspace: "genomics-1",
    name: "acme/genomics-1",
  });
  for (const bad of [
    "0",
    "007",
    0,
    -1,
    1.5,
    2 ** 60,
    "acme",
    "acme/",
    "/ws",
    "a/b/c",
    "-a/b",
    "",
    null,
  ]) {
    expect(parseWorkspaceRef(bad), String(bad)).toBeUndefined();
  }
  expect(isWorkspaceId("12")).toBe(true);
  expect(isWorkspaceId("acme/x")).toBe(false);
});
