import { expect } from "vitest";
import { operations } from "../../generated/operations.js";
import { loadDocument, successResponse } from "../../src/openapi/operations-document.js";
import { schemaValidator } from "../../src/testing/validator.js";

/** An answer must stay valid for its operation's schema once filled from state. */
export function expectValid(operation: string, body: unknown): void {
  const info = operations[operation];
  if (!info) throw new Error(`No operation ${operation}`);
  const { schema } = successResponse(loadDocument(), info);
  expect(schemaValidator("response").check(schema!, body, "body")).toBeUndefined();
}

/**
 * A handler's DescribeWorkflow answer valid on every release: 1.85.0's `Workflow` requires
 * these fields, which later releases made optional.
 */
export function runAnswer(id: string, status: string) {
  return {
    workflow: {
      id,
      status,
      commandLine: "nextflow run hello",
      projectName: "hello",
      runName: "emulated_run",
      sessionId: "00000000-0000-0000-0000-000000000000",
      submit: "2024-01-01T00:00:00Z",
      userName: "emulated-user",
      workDir: "s3://emulated/work",
    },
  };
}
