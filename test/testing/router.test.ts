import { describe, expect, test } from "vitest";
import { operations } from "../../generated/operations.js";
import { createRouter } from "../../src/testing/router.js";

const route = createRouter(operations);

describe("routing concrete paths to operations", () => {
  test("every operation's own template, filled in, routes back to it", () => {
    const misrouted = Object.entries(operations).filter(([, info]) => {
      const path = info.path.replace(/\{[^}]+\}/g, "x1");
      return route(info.method, path)?.info !== info;
    });
    expect(misrouted.map(([key]) => key)).toEqual([]);
  });

  test("a literal segment beats a parameter", () => {
    expect(route("POST", "/workflow/launch")?.info.operationId).toBe("CreateWorkflowLaunch");
    expect(route("POST", "/workflow/delete")?.info.operationId).toBe("DeleteWorkflowMany");
    expect(route("GET", "/workflow/abc")?.info.operationId).toBe("DescribeWorkflow");
  });

  test("parameters are decoded; a trailing content path may span segments", () => {
    expect(route("GET", "/workflow/a%20b")?.params).toEqual({ workflowId: "a b" });
    const encoded = route("GET", "/data-links/dl1/browse/dir%2Ffile.txt");
    const plain = route("GET", "/data-links/dl1/browse/dir/file.txt");
    expect(encoded?.params).toEqual({ dataLinkId: "dl1", path: "dir/file.txt" });
    expect(plain?.info).toBe(encoded?.info);
    expect(plain?.params).toEqual(encoded?.params);
  });

  test("unknown paths, extra segments and other methods match nothing", () => {
    expect(route("GET", "/workflows")).toBeUndefined();
    expect(route("GET", "/workflow/abc/typo")).toBeUndefined();
    expect(route("DELETE", "/service-info")).toBeUndefined();
    expect(route("GET", "/workflow/%E0%A4%A")).toBeUndefined();
  });
});
