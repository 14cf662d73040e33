import type { ServerResponse } from "node:http";
import type { OperationInfo } from "../../generated/operations.js";
import {
  deref,
  successResponse,
  type OpenApiDocument,
  type SchemaObject,
} from "../openapi/operations-document.js";
import { sampleSchema } from "./sample.js";
import type { EmulatorResponse } from "./types.js";
import { schemaValidator } from "./validator.js";
import { UnsupportedOperationError } from "../errors/unsupported-operation-error.js";

/** Sampled JSON per schema node and nulls setting; sampled once per process. */
const sampledJson = new Map<string, WeakMap<SchemaObject, string>>();

function sampled(doc: OpenApiDocument, schema: SchemaObject, nulls: boolean): unknown {
  const key = String(nulls);
  let cache = sampledJson.get(key);
  if (!cache) sampledJson.set(key, (cache = new WeakMap()));
  let json = cache.get(schema);
  if (json === undefined) {
    json = JSON.stringify(
      sampleSchema(doc, schema, { direction: "response", minimal: false, nulls }),
    );
    cache.set(schema, json);
  }
  return JSON.parse(json);
}

/** A fresh copy of the operation's sampled JSON answer. */
export function sampledBody(
  doc: OpenApiDocument,
  info: OperationInfo,
  nulls: boolean,
): Record<string, unknown> {
  const { schema } = successResponse(doc, info);
  return schema ? (sampled(doc, schema, nulls) as Record<string, unknown>) : {};
}

/** One `$ref` node per component, so that its sample is cached like an operation's. */
const componentRefs = new Map<string, SchemaObject>();

/** A fresh sample of a component schema, e.g. "PipelineDbDto". */
export function sampledComponent(
  doc: OpenApiDocument,
  name: string,
  nulls: boolean,
): Record<string, unknown> {
  if (!doc.components.schemas[name]) {
    throw new UnsupportedOperationError(`schema ${name}`, doc.info.version);
  }
  let ref = componentRefs.get(name);
  if (!ref) componentRefs.set(name, (ref = { $ref: `#/components/schemas/${name}` }));
  return sampled(doc, ref, nulls) as Record<string, unknown>;
}

/**
 * The name of the component schema at `path` in the operation's answer (a property name, or
 * "[]" for an array's items): the object the service writes there, whatever this release calls
 * it. DescribeWorkflow's `workflow` is a `Workflow` before 1.140.0 and a `WorkflowMaxDbDto`
 * since; a pipeline's saved `launch` a `Launch`, then a `LaunchDbDto`.
 */
export function answerSchemaName(
  doc: OpenApiDocument,
  info: OperationInfo,
  path: string[],
): string {
  let node: unknown = successResponse(doc, info).schema;
  let name: string | undefined;
  for (const key of path) {
    node = key === "[]" ? deref(doc, node)?.items : propertyIn(doc, node, key, 0);
    name = componentName(node);
  }
  if (name === undefined) {
    throw new UnsupportedOperationError(
      `a named schema at ${path.join(".")} in the answer of ${info.operationId}`,
      doc.info.version,
    );
  }
  return name;
}

/** A property's schema node, in the schema `node` (a $ref or not) or its allOf parts. */
function propertyIn(doc: OpenApiDocument, node: unknown, key: string, depth: number): unknown {
  const schema = deref(doc, node);
  if (!schema || depth > 8) return undefined;
  const own = (schema.properties as Record<string, unknown> | undefined)?.[key];
  if (own !== undefined) return own;
  for (const part of (schema.allOf as unknown[] | undefined) ?? []) {
    const found = propertyIn(doc, part, key, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The component a node names: its `$ref`, or the one `$ref` of the anyOf that makes it nullable. */
function componentName(node: unknown): string | undefined {
  const schema = node as SchemaObject | undefined;
  const ref =
    typeof schema?.$ref === "string"
      ? schema.$ref
      : ((schema?.anyOf ?? schema?.allOf) as SchemaObject[] | undefined)?.find(
          (part) => typeof part.$ref === "string",
        )?.$ref;
  const prefix = "#/components/schemas/";
  return typeof ref === "string" && ref.startsWith(prefix) ? ref.slice(prefix.length) : undefined;
}

/** Whether a property of a component schema admits null (`nullable`, directly or via allOf). */
export function isNullable(doc: OpenApiDocument, schemaName: string, property: string): boolean {
  const prop = propertyIn(doc, doc.components.schemas[schemaName], property, 0);
  return (prop as SchemaObject | undefined)?.nullable === true;
}

/** The property names of a component schema, its allOf parts included, and the required ones. */
export function propertiesOf(
  doc: OpenApiDocument,
  schemaName: string,
): { names: string[]; required: Set<string> } {
  const names = new Set<string>();
  const required = new Set<string>();
  const walk = (node: unknown, depth: number): void => {
    const schema = deref(doc, node);
    if (!schema || depth > 8) return;
    for (const key of Object.keys((schema.properties as object | undefined) ?? {})) names.add(key);
    for (const key of (schema.required as string[] | undefined) ?? []) required.add(key);
    for (const part of (schema.allOf as unknown[] | undefined) ?? []) walk(part, depth + 1);
  };
  walk(doc.components.schemas[schemaName], 0);
  return { names: [...names], required };
}

/**
 * An answer object built from state, as the service's serializer writes it: `values` where
 * the schema has the property; every other property null where it may be, else left out (a
 * required one is sampled). With `fitted`, a value of another type than the property's (a
 * request's `credentialsId` string where the answer has a `credentials` list of the same
 * name, say) counts as absent: for items kept by rule, whose fields come from requests.
 */
export function stateDto(
  doc: OpenApiDocument,
  schemaName: string,
  values: Record<string, unknown>,
  fitted = false,
): Record<string, unknown> {
  const sample = sampledComponent(doc, schemaName, false);
  const { names, required } = propertiesOf(doc, schemaName);
  const schema = doc.components.schemas[schemaName];
  const out: Record<string, unknown> = {};
  for (const key of names) {
    const value = values[key];
    const fits =
      value !== undefined &&
      (!fitted ||
        schemaValidator("response").check(
          propertyIn(doc, schema, key, 0) as SchemaObject,
          value,
          key,
        ) === undefined);
    if (fits) out[key] = value;
    else if (required.has(key)) out[key] = sample[key];
    else if (isNullable(doc, schemaName, key)) out[key] = null;
  }
  return out;
}

/**
 * How an operation's JSON answer holds items: its schema's name; `list`, the array property
 * and its items' schema (`{ dataLinks: [DataLinkDto], totalSize }`); `wrapper`, the one
 * object property when the answer wraps an item (`{ dataLink: DataLinkDto }`).
 */
export interface AnswerShape {
  schema: string;
  list?: { key: string; schema: string };
  wrapper?: { key: string; schema: string };
}

export function answerShape(doc: OpenApiDocument, info: OperationInfo): AnswerShape | undefined {
  const schema = componentName(successResponse(doc, info).schema);
  if (schema === undefined || info.parseAs !== "json") return undefined;
  const root = doc.components.schemas[schema];
  const shape: AnswerShape = { schema };
  const objects: { key: string; schema: string }[] = [];
  for (const key of propertiesOf(doc, schema).names) {
    const node = deref(doc, propertyIn(doc, root, key, 0));
    const items = node?.type === "array" ? componentName(node.items) : undefined;
    if (items && !shape.list) shape.list = { key, schema: items };
    const object = componentName(propertyIn(doc, root, key, 0));
    if (object && deref(doc, doc.components.schemas[object])?.properties) {
      objects.push({ key, schema: object });
    }
  }
  if (objects.length === 1) shape.wrapper = objects[0]!;
  return shape;
}

/** The answer of a stateless operation: its success status with a body valid for the schema. */
export function sampledAnswer(
  doc: OpenApiDocument,
  info: OperationInfo,
  nulls: boolean,
): EmulatorResponse {
  const { status, contentType } = successResponse(doc, info);
  if (!contentType) return { status };
  const headers = { "content-type": contentType };
  if (info.parseAs === "json") return { status, body: sampledBody(doc, info, nulls), headers };
  // Downloads (logs, CSV exports, files) are `format: binary`: any content is valid.
  const text = "emulated content\n";
  return { status, body: info.parseAs === "text" ? text : new TextEncoder().encode(text), headers };
}

/**
 * Why a handler's success answer is refused, if it is: it is checked against the operation's
 * response schema, as the service's answers are, since an invalid one would otherwise reach the
 * code under test as if the service could send it. The message says which handler and what is
 * wrong.
 */
export function handlerAnswerError(
  doc: OpenApiDocument,
  info: OperationInfo,
  answer: EmulatorResponse,
): string | undefined {
  const { status, schema } = successResponse(doc, info);
  const body = answer.body;
  if (answer.status !== status || !schema || info.parseAs !== "json") return undefined;
  if (typeof body === "string" || body instanceof Uint8Array) return undefined;
  const error = schemaValidator("response").check(schema, body, "body");
  return error
    ? `The handler of ${info.operationId} answered a body the response schema rejects: ${error}. Fix the handler's answer.`
    : undefined;
}

/**
 * Writes an answer; a body the content type does not name is sent as JSON. With `end` false the
 * answer is sent whole (its length announced) but the response is left open, for the caller to
 * end once it has read what it must.
 */
export function writeAnswer(res: ServerResponse, answer: EmulatorResponse, end = true): void {
  const headers: Record<string, string> = { ...answer.headers };
  const contentType = Object.keys(headers).find((h) => h.toLowerCase() === "content-type");
  let payload: string | Uint8Array | undefined;
  if (answer.body === undefined) payload = undefined;
  else if (typeof answer.body === "string") {
    payload = answer.body;
    if (!contentType) headers["content-type"] = "text/plain";
  } else if (answer.body instanceof Uint8Array) {
    payload = answer.body;
    if (!contentType) headers["content-type"] = "application/octet-stream";
  } else {
    payload = JSON.stringify(answer.body);
    if (!contentType) headers["content-type"] = "application/json";
  }
  if (end) {
    res.writeHead(answer.status, headers);
    return void res.end(payload);
  }
  headers["content-length"] = String(payload === undefined ? 0 : Buffer.byteLength(payload));
  res.writeHead(answer.status, headers);
  if (payload === undefined) res.flushHeaders();
  else res.write(payload);
}
