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
