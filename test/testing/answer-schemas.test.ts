import { describe, expect, test } from "vitest";
import { operations } from "../../generated/operations.js";
import { UnsupportedOperationError } from "../../src/index.js";
import type { OpenApiDocument } from "../../src/openapi/operations-document.js";
import { loadDocument } from "../../src/openapi/operations-document.js";
import { answerSchemaName } from "../../src/testing/answers.js";

/**
 * The emulator answers a run, a saved launch, the user and participants with the schema the
 * operation names in this release: the service renamed them (DescribeWorkflow's `workflow` was a
 * `Workflow` before 1.140.0, a `WorkflowMaxDbDto` since), and a fixed name answered 500 on older
 * releases. `npm run test:releases` runs the emulator's tests on each mirrored release.
 */
const info = {
  operationId: "Describe",
  method: "GET",
  path: "/thing",
  pathParams: [],
  query: {},
  parseAs: "json" as const,
};
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
/** A release whose answer is `{ workflow, participants[] }`, under names of its own. */
const release = (workflow: unknown): OpenApiDocument =>
  ({
    openapi: "3.0.1",
    info: { title: "t", version: "1.0.0" },
    paths: {
      "/thing": {
        get: {
          responses: {
            "200": { content: { "application/json": { schema: ref("DescribeResponse") } } },
          },
        },
      },
    },
    components: {
      schemas: {
        DescribeResponse: {
          allOf: [
            { type: "object", properties: { workflow } },
            {
              type: "object",
              properties: { participants: { type: "array", items: ref("OldParticipant") } },
            },
          ],
        },
        OldWorkflow: { type: "object" },
        OldParticipant: { type: "object" },
      },
    },
  }) as unknown as OpenApiDocument;

describe("the schema at a path in an operation's answer", () => {
  test("a $ref, a nullable $ref (anyOf) and array items, through allOf", () => {
    expect(answerSchemaName(release(ref("OldWorkflow")), info, ["workflow"])).toBe("OldWorkflow");
    const nullable = { anyOf: [ref("OldWorkflow"), { type: "null" }] };
    expect(answerSchemaName(release(nullable), info, ["workflow"])).toBe("OldWorkflow");
    expect(answerSchemaName(release({}), info, ["participants", "[]"])).toBe("OldParticipant");
  });

  test("no named schema there: an UnsupportedOperationError naming the path and release", () => {
    const inline = release({ type: "object" });
    expect(() => answerSchemaName(inline, info, ["workflow"])).toThrow(UnsupportedOperationError);
    expect(() => answerSchemaName(inline, info, ["nothing"])).toThrow(
      /^a named schema at nothing in the answer of Describe is not in API 1\.0\.0/,
    );
  });

  test("on the pinned release, the names the service writes today", () => {
    const doc = loadDocument();
    const name = (operationId: string, ...path: string[]) =>
      answerSchemaName(
        doc,
        Object.values(operations).find((o) => o.operationId === operationId)!,
        path,
      );
    expect(name("DescribeWorkflow", "workflow")).toBe("WorkflowMaxDbDto");
    expect(name("DescribePipelineLaunch", "launch")).toBe("LaunchDbDto");
    expect(name("UserInfo", "user")).toBe("UserResponseDto");
    expect(name("ListWorkspaceParticipants", "participants", "[]")).toBe("ParticipantResponseDto");
  });
});
