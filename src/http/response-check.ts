/**
 * `validateResponses`: a success JSON answer checked against its operation's response schema,
 * so a user on another release learns where its answers leave our types. The validator (Ajv and
 * the compiled schemas) is loaded on the first checked answer, once per process.
 */
import { ResponseValidationError } from "../errors/response-validation-error.js";
import type { CallInfo } from "../errors/seqera-api-error.js";
import type { Redact } from "../core/redact.js";
import {
  loadResponseValidator,
  type ResponseIssue,
  type ResponseValidator,
} from "./response-validation.js";

export type ValidateResponses = "off" | "warn" | "throw";

let validator: Promise<ResponseValidator> | undefined;

/**
 * Issues of one answer, their values redacted (a server may echo the token); with "throw", a
 * ResponseValidationError instead of any issue.
 */
export async function checkResponse(
  mode: Exclude<ValidateResponses, "off">,
  call: CallInfo,
  status: number,
  body: unknown,
  redact: Redact,
): Promise<ResponseIssue[]> {
  const loading = (validator ??= loadResponseValidator());
  // A failed load (ajv missing) is reported to this call and retried by the next one.
  loading.catch(() => {
    if (validator === loading) validator = undefined;
  });
  const issues = (await loading)(call.method, call.path, status, body).map((issue) =>
    typeof issue.value === "string" ? { ...issue, value: redact(issue.value) } : issue,
  );
  if (issues.length > 0 && mode === "throw") {
    throw new ResponseValidationError(describeIssues(call, issues), { ...call, status, issues });
  }
  return issues;
}

/** "GET /workflow/{workflowId} (DescribeWorkflow) answered outside its schema: /workflow/status must be …, got null; …" */
export function describeIssues(call: CallInfo, issues: readonly ResponseIssue[]): string {
  const where = issues.map((i) => `${i.path || "/"} ${i.message}, got ${shown(i.value)}`);
  return `${call.method} ${call.path} (${call.operationId}) answered outside its schema: ${where.join("; ")}`;
}

function shown(value: unknown): string {
  return value === undefined ? "nothing" : JSON.stringify(value);
}
