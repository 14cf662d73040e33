/**
 * `validateResponses`: a success JSON answer checked against its operation's response schema,
 * so a user on another release learns where its answers leave our types. The validator (Ajv,
 * a dynamic import, and the compiled schemas) is loaded on the first checked answer, once per
 * process; each operation's response schema is compiled on its first use and kept.
 */
import type { ErrorObject, ValidateFunction } from "ajv";
import type { Redact } from "../core/redact.js";
import {
  ResponseValidationError,
  type ResponseIssue,
} from "../errors/response-validation-error.js";
import type { CallInfo } from "../errors/seqera-api-error.js";
import { addComponentSchemas, loadAjv } from "../openapi/ajv.js";
import { deref, isRecord, operationObject, type OpenApiDocument } from "../openapi/document.js";
import { toJsonSchema } from "../openapi/json-schema.js";
import { loadDocument } from "../openapi/load.js";

export type { ResponseIssue };

/**
 * Checks one answer: the operation (method and path template, as in the operation table),
 * the status it came with, and its parsed JSON body. An operation, status or media type the
 * schema does not describe as JSON yields no issues.
 */
export type ResponseValidator = (
  method: string,
  pathTemplate: string,
  status: number,
  body: unknown,
) => ResponseIssue[];

/** At most this many issues per answer: a body far off its schema says so in a few lines. */
export const MAX_ISSUES = 20;
const MAX_VALUE_LENGTH = 64;
const SECRET = /token|secret|password|passphrase|private.?key|access.?key|api.?key|^keys$/i;
const BASE = "seqera-response";

/**
 * Loads Ajv (a dynamic import: nothing is loaded until this is called) and returns a validator
 * for the pinned schema (generated/openapi.json, with our overlays and rules). Each
 * operation's response schema is compiled on its first use and kept.
 */
export function loadResponseValidator(): Promise<ResponseValidator> {
  return responseValidatorFor(loadDocument());
}

/** The same, for another document (a release as published, say). */
export async function responseValidatorFor(doc: OpenApiDocument): Promise<ResponseValidator> {
  const newAjv = loadAjv("validateResponses");
  const ajv = newAjv({ allErrors: true });
  addComponentSchemas(ajv, doc, "response", BASE);
  const compiled = new Map<string, ValidateFunction | undefined>();
  return (method, pathTemplate, status, body) => {
    const key = `${method.toUpperCase()} ${pathTemplate} ${status}`;
    let validate = compiled.get(key);
    if (!compiled.has(key)) {
      const schema = responseSchema(doc, method, pathTemplate, status);
      validate = schema ? ajv.compile(toJsonSchema(schema, "response", BASE)) : undefined;
      compiled.set(key, validate);
    }
    if (!validate || validate(body)) return [];
    return issuesOf(validate.errors ?? [], body);
  };
}

/** The JSON schema of the response declared for `status` (else `default`), if any. */
function responseSchema(
  doc: OpenApiDocument,
  method: string,
  path: string,
  status: number,
): Record<string, unknown> | undefined {
  if (!isRecord(doc.paths[path]?.[method.toLowerCase()])) return undefined;
  const responses = operationObject(doc, { method, path }).responses;
  if (!isRecord(responses)) return undefined;
  const response = deref(doc, responses[String(status)] ?? responses.default);
  const content = isRecord(response?.content) ? response.content : {};
  const json = Object.keys(content).find((type) => /json/i.test(type));
  const media = json ? deref(doc, content[json]) : undefined;
  return isRecord(media?.schema) ? media.schema : undefined;
}

/**
 * Ajv's errors, reduced to one issue per offending value. A nullable property is an `anyOf`
 * of its type and null, which fails three times (its type, "must be null", the anyOf); only
 * the first says something, so the other two are dropped when it is there.
 */
function issuesOf(errors: readonly ErrorObject[], body: unknown): ResponseIssue[] {
  const specific = errors.filter(
    (e) => !["anyOf", "oneOf", "if"].includes(e.keyword) && !isNullBranch(e),
  );
  const issues = new Map<string, ResponseIssue>();
  for (const error of specific.length > 0 ? specific : errors) {
    const issue = toIssue(error, body);
    const key = `${issue.path} ${issue.message}`;
    if (!issues.has(key)) issues.set(key, issue);
    if (issues.size === MAX_ISSUES) break;
  }
  return [...issues.values()];
}

function isNullBranch(error: ErrorObject): boolean {
  return error.keyword === "type" && (error.params as { type?: unknown }).type === "null";
}

function toIssue(error: ErrorObject, body: unknown): ResponseIssue {
  if (error.keyword === "required") {
    const missing = String((error.params as { missingProperty: string }).missingProperty);
    return {
      path: `${error.instancePath}/${escape(missing)}`,
      message: "is required but absent",
      value: undefined,
    };
  }
  let message = error.message ?? error.keyword;
  if (error.keyword === "type") {
    // Ajv joins a union with commas: "must be string,null".
    message = `must be ${String((error.params as { type: unknown }).type)
      .split(",")
      .join(" or ")}`;
  } else if (error.keyword === "enum") {
    const allowed = (error.params as { allowedValues: unknown[] }).allowedValues;
    message = `must be one of ${cut(allowed.map((v) => JSON.stringify(v)).join(", "))}`;
  }
  return { path: error.instancePath, message, value: display(error.instancePath, body) };
}

/** The value at a JSON pointer of `body`, made safe and short for a log line. */
function display(pointer: string, body: unknown): unknown {
  const keys = pointer.split("/").slice(1).map(unescape);
  if (SECRET.test(keys.at(-1) ?? "")) return "[redacted]";
  let value: unknown = body;
  for (const key of keys)
    value =
      isRecord(value) || Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
  if (typeof value === "string") return cut(value);
  if (Array.isArray(value)) return `array(${value.length})`;
  if (isRecord(value)) return cut(`object {${Object.keys(value).join(", ")}}`);
  return value;
}

const cut = (text: string): string =>
  text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH)}…` : text;

const escape = (key: string): string => key.replace(/~/g, "~0").replace(/\//g, "~1");
const unescape = (key: string): string => key.replace(/~1/g, "/").replace(/~0/g, "~");

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
    throw new ResponseValidationError(describeIssues(call, issues), {
      ...call,
      status,
      issues,
      answer: body,
    });
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
