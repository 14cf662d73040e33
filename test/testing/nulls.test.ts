import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { operations } from "../../generated/operations.js";
import { isNullable, sampledAnswer, sampledComponent } from "../../src/testing/answers.js";
import { loadDocument } from "../../src/openapi/operations-document.js";
import { startEmulator, type Emulator } from "../../src/testing/index.js";
import { expectAnswer } from "./http.js";
import { expectValid } from "./valid.js";

const doc = loadDocument();

/** Paths of the nulls in a JSON value, e.g. "workflow.logFile". */
function nullPaths(value: unknown, at = ""): string[] {
  if (value === null) return [at];
  if (typeof value !== "object") return [];
  return Object.entries(value as object).flatMap(([k, v]) => nullPaths(v, at ? `${at}.${k}` : k));
}

let withNulls: Emulator;
let without: Emulator;
beforeAll(async () => {
  withNulls = await startEmulator({ rateLimit: false });
  without = await startEmulator({ rateLimit: false, nulls: false });
});
afterAll(async () => {
  await withNulls.close();
  await without.close();
});

describe("answers carry null where the service may send it", () => {
  test("on by default: a sampled answer has nulls, valid for the schema, the same every time", async () => {
    const path = "/workflow/abc/metrics";
    const first = await expectAnswer(withNulls, "GET /workflow/{workflowId}/metrics", path);
    expect(nullPaths(first).length).toBeGreaterThan(0);
    const again = await expectAnswer(withNulls, "GET /workflow/{workflowId}/metrics", path);
    expect(again).toEqual(first);
  });

  test("nulls: false samples every property", async () => {
    const body = await expectAnswer(
      without,
      "GET /workflow/{workflowId}/metrics",
      "/workflow/abc/metrics",
    );
    expect(nullPaths(body)).toEqual([]);
  });

  test("only nullable properties that are not required, about half of them", () => {
    const task = sampledComponent(doc, "Task", true);
    // Top-level properties of Task (nested objects are sampled by the same rule).
    const nulls = nullPaths(task).filter((path) => !path.includes("."));
    const nullable = Object.keys(
      doc.components.schemas.Task!.properties as Record<string, unknown>,
    ).filter((key) => isNullable(doc, "Task", key));
    for (const key of nulls) expect(nullable).toContain(key);
    expect(nulls.length / nullable.length).toBeGreaterThan(0.25);
    expect(nulls.length / nullable.length).toBeLessThan(0.75);
    expect(nulls).not.toContain("status");
    expect(nulls).not.toContain("taskId");
  });

  test("answers from state send null for what the state leaves unset", async () => {
    const run = withNulls.state.runs.add({});
    const { workflow } = await expectAnswer(
      withNulls,
      "GET /workflow/{workflowId}",
      `/workflow/${run.id}`,
    );
    expect(workflow).toMatchObject({
      start: null,
      complete: null,
      success: null,
      errorMessage: null,
    });
  });

  test("every JSON operation's default answer stays valid; many carry nulls", () => {
    let carrying = 0;
    let json = 0;
    for (const [key, info] of Object.entries(operations)) {
      if (info.parseAs !== "json") continue;
      const { body } = sampledAnswer(doc, info, true);
      if (body === undefined) continue;
      json++;
      expectValid(key, body);
      if (nullPaths(body).length > 0) carrying++;
    }
    console.log(`${carrying}/${json} JSON answers carry nulls by default`);
    expect(carrying).toBeGreaterThan(json / 4);
  });
});
