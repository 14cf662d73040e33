import { DIFF_KINDS, diffSchemaNode, type DiffEntry } from "./diff-schema.js";
import {
  deref,
  HTTP_METHODS,
  isRecord,
  successResponse,
  type OpenApiDocument,
  type OperationRef,
} from "../../src/openapi/document.js";
import { schemaUsage, type Usage } from "./usage.js";

export type { DiffEntry, DiffKind } from "./diff-schema.js";

const REQUEST: Usage = { request: true, response: false };
const RESPONSE: Usage = { request: false, response: true };
/** A schema no operation reaches may still be used through `components`: assume both. */
const UNREACHED: Usage = { request: true, response: true };

interface Operation {
  ref: OperationRef;
  op: Record<string, unknown>;
  params: Map<string, Record<string, unknown>>;
}

/**
 * What changed from one (overlaid) release to the next, for a TypeScript user of the
 * generated types: operations compared by "METHOD path", component schemas by name and
 * property. Pure: reads both documents, returns entries sorted by kind, then location.
 */
export function diffDocuments(before: OpenApiDocument, after: OpenApiDocument): DiffEntry[] {
  const out: DiffEntry[] = [];
  diffOperations(before, after, out);
  diffComponents(before, after, out);
  const order = (e: DiffEntry): number => DIFF_KINDS.indexOf(e.kind);
  return out.sort(
    (a, b) =>
      order(a) - order(b) ||
      a.location.localeCompare(b.location) ||
      a.detail.localeCompare(b.detail),
  );
}

function diffOperations(before: OpenApiDocument, after: OpenApiDocument, out: DiffEntry[]): void {
  const oldOps = operationsOf(before);
  const newOps = operationsOf(after);
  for (const key of oldOps.keys()) {
    if (!newOps.has(key)) {
      out.push({
        kind: "operation-removed",
        location: key,
        detail: "operation removed",
        breaking: true,
      });
    }
  }
  for (const [key, current] of newOps) {
    const previous = oldOps.get(key);
    if (!previous) {
      const id = current.op.operationId ? ` (${String(current.op.operationId)})` : "";
      out.push({
        kind: "operation-added",
        location: key,
        detail: `operation added${id}`,
        breaking: false,
      });
      continue;
    }
    if (previous.op.operationId !== current.op.operationId) {
      out.push({
        kind: "operation-renamed",
        location: key,
        detail: `operationId ${String(previous.op.operationId)} → ${String(current.op.operationId)}; operations["${String(previous.op.operationId)}"] no longer exists`,
        breaking: true,
      });
    }
    diffParameters(key, previous, current, out);
    diffRequestBody(key, before, after, previous.op, current.op, out);
    diffResponse(key, before, after, current.ref, out);
  }
}

function operationsOf(doc: OpenApiDocument): Map<string, Operation> {
  const ops = new Map<string, Operation>();
  for (const [route, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isRecord(op)) continue;
      const params = new Map<string, Record<string, unknown>>();
      for (const raw of [item.parameters, op.parameters].flatMap((p) =>
        Array.isArray(p) ? p : [],
      )) {
        const param = deref(doc, raw);
        if (isRecord(param))
          params.set(`${String(param.in)} parameter ${String(param.name)}`, param);
      }
      ops.set(`${method.toUpperCase()} ${route}`, { ref: { method, path: route }, op, params });
    }
  }
  return ops;
}

function diffParameters(
  key: string,
  previous: Operation,
  current: Operation,
  out: DiffEntry[],
): void {
  for (const name of previous.params.keys()) {
    if (!current.params.has(name)) {
      out.push({
        kind: "parameter-removed",
        location: `${key} ${name}`,
        detail: "removed; calls passing it no longer compile",
        breaking: true,
      });
    }
  }
  for (const [name, param] of current.params) {
    const location = `${key} ${name}`;
    const old = previous.params.get(name);
    const required = param.required === true;
    if (!old) {
      out.push({
        kind: "parameter-added",
        location,
        detail: required ? "added, required" : "added, optional",
        breaking: required,
      });
      continue;
    }
    if (required && old.required !== true) {
      out.push({ kind: "parameter-required", location, detail: "now required", breaking: true });
    }
    diffSchemaNode(old.schema, param.schema, location, REQUEST, out);
  }
}

function diffRequestBody(
  key: string,
  before: OpenApiDocument,
  after: OpenApiDocument,
  oldOp: Record<string, unknown>,
  newOp: Record<string, unknown>,
  out: DiffEntry[],
): void {
  const location = `${key} request body`;
  const oldBody = firstMedia(before, deref(before, oldOp.requestBody));
  const newBody = firstMedia(after, deref(after, newOp.requestBody));
  if (!oldBody && !newBody) return;
  if (!newBody) {
    out.push({ kind: "body-removed", location, detail: "removed", breaking: true });
    return;
  }
  if (!oldBody) {
    const body = deref(after, newOp.requestBody);
    const required = isRecord(body) && body.required === true;
    const detail = required ? "added, required" : "added, optional";
    out.push({ kind: "body-added", location, detail, breaking: required });
    return;
  }
  if (oldBody.contentType !== newBody.contentType) {
    out.push({
      kind: "content-type-changed",
      location,
      detail: `${oldBody.contentType} → ${newBody.contentType}`,
      breaking: true,
    });
  }
  diffSchemaNode(oldBody.schema, newBody.schema, location, REQUEST, out);
}

function diffResponse(
  key: string,
  before: OpenApiDocument,
  after: OpenApiDocument,
  ref: OperationRef,
  out: DiffEntry[],
): void {
  const location = `${key} response`;
  const oldResponse = successResponse(before, ref);
  const newResponse = successResponse(after, ref);
  const oldType = oldResponse.contentType ?? "no content";
  const newType = newResponse.contentType ?? "no content";
  if (oldType !== newType) {
    out.push({
      kind: "content-type-changed",
      location,
      detail: `${oldType} → ${newType}`,
      breaking: true,
    });
    return;
  }
  diffSchemaNode(oldResponse.schema, newResponse.schema, location, RESPONSE, out);
}

function firstMedia(
  doc: OpenApiDocument,
  body: unknown,
): { contentType: string; schema: unknown } | undefined {
  if (!isRecord(body) || !isRecord(body.content)) return undefined;
  const contentType = Object.keys(body.content)[0];
  if (!contentType) return undefined;
  const media = deref(doc, body.content[contentType]);
  return { contentType, schema: isRecord(media) ? media.schema : undefined };
}

function diffComponents(before: OpenApiDocument, after: OpenApiDocument, out: DiffEntry[]): void {
  const oldSchemas = before.components?.schemas ?? {};
  const newSchemas = after.components?.schemas ?? {};
  const oldUsage = schemaUsage(before);
  const newUsage = schemaUsage(after);
  const usageOf = (name: string): Usage => {
    const a = oldUsage.get(name);
    const b = newUsage.get(name);
    const request = Boolean(a?.request || b?.request);
    const response = Boolean(a?.response || b?.response);
    return request || response ? { request, response } : UNREACHED;
  };
  for (const name of Object.keys(oldSchemas)) {
    if (!(name in newSchemas)) {
      out.push({
        kind: "schema-removed",
        location: name,
        detail: `removed; components["schemas"]["${name}"] no longer exists`,
        breaking: true,
      });
    }
  }
  for (const [name, schema] of Object.entries(newSchemas)) {
    if (!(name in oldSchemas)) {
      out.push({ kind: "schema-added", location: name, detail: "added", breaking: false });
    } else {
      diffSchemaNode(oldSchemas[name], schema, name, usageOf(name), out);
    }
  }
}
