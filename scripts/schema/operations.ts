import {
  deref,
  HTTP_METHODS,
  isRecord,
  operationParameters,
  successResponse,
  type OpenApiDocument,
  type ParameterObject,
} from "../../src/openapi/document.js";
import type {
  OperationInfo,
  Pagination,
  BodyFormat,
  QueryParamInfo,
} from "../../src/openapi/operation-info.js";

/** Builds the runtime operation table, keyed `"GET /workflow"`, in path then method order. */
export function buildOperationTable(doc: OpenApiDocument): Record<string, OperationInfo> {
  const table: Record<string, OperationInfo> = {};
  for (const route of Object.keys(doc.paths).sort()) {
    for (const method of HTTP_METHODS) {
      const op = doc.paths[route]![method];
      if (!isRecord(op)) continue;
      const params = operationParameters(doc, { method, path: route });
      const info = describeOperation(doc, method, route, op, params);
      table[`${info.method} ${route}`] = info;
    }
  }
  return table;
}

function describeOperation(
  doc: OpenApiDocument,
  method: string,
  route: string,
  op: Record<string, unknown>,
  params: ParameterObject[],
): OperationInfo {
  const query: Record<string, QueryParamInfo> = {};
  for (const p of params.filter((p) => p.in === "query")) {
    const schema = deref(doc, p.schema);
    const style = p.style ?? "form";
    query[p.name] = {
      style,
      // OpenAPI's default: explode is true for form style only.
      explode: p.explode ?? style === "form",
      array: schema?.type === "array",
      required: p.required === true,
    };
  }
  const body = deref(doc, op.requestBody);
  const requestContentType = isRecord(body?.content) ? Object.keys(body.content)[0] : undefined;
  const { contentType, schema } = successResponse(doc, { method, path: route });
  const parseAs = contentType ? parseAsFor(contentType) : "empty";
  const info: OperationInfo = {
    operationId: String(op.operationId ?? `${method} ${route}`),
    method: method.toUpperCase(),
    path: route,
    pathParams: params.filter((p) => p.in === "path").map((p) => p.name),
    query,
    parseAs,
  };
  if (requestContentType) info.requestContentType = requestContentType;
  if (contentType) info.responseContentType = contentType;
  const pagination = detectPagination(doc, query, schema);
  if (pagination) info.pagination = pagination;
  return info;
}

export function parseAsFor(contentType: string): BodyFormat {
  if (/json/i.test(contentType)) return "json";
  if (/^text\//i.test(contentType)) return "text";
  return "blob";
}

/**
 * The published schema names paging fields inconsistently (`totalSize` on most lists, `total`
 * on workflow tasks; `pageSize` or `max` beside `nextPageToken`), so the style and field names
 * are read per operation from its parameters and its response's single array property.
 */
function detectPagination(
  doc: OpenApiDocument,
  query: Record<string, QueryParamInfo>,
  responseSchema: unknown,
): Pagination | undefined {
  const schema = deref(doc, responseSchema);
  const props = isRecord(schema?.properties) ? schema.properties : {};
  const arrays = Object.keys(props).filter((k) => deref(doc, props[k])?.type === "array");
  if (arrays.length !== 1) return undefined;
  const items = arrays[0]!;
  if ("nextPageToken" in query && "nextPageToken" in props) {
    const sizeParam = "pageSize" in query ? "pageSize" : "max" in query ? "max" : undefined;
    return sizeParam ? { style: "token", items, sizeParam } : { style: "token", items };
  }
  if ("max" in query && "offset" in query) {
    const total = ["totalSize", "total"].find((k) => k in props);
    return total
      ? { style: "offset", items, total, sizeParam: "max" }
      : { style: "offset", items, sizeParam: "max" };
  }
  return undefined;
}
