import type { OperationInfo, Pagination, ParseAs, QueryParamInfo } from "./operation-types.js";
import { deref, isRecord, type OpenApiDocument } from "./parse.js";

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch"] as const;

interface ParameterObject {
  name: string;
  in: string;
  required?: boolean;
  style?: string;
  explode?: boolean;
  schema?: Record<string, unknown>;
}

/** Builds the runtime operation table, keyed `"GET /workflow"`, in path then method order. */
export function buildOperationTable(doc: OpenApiDocument): Record<string, OperationInfo> {
  const table: Record<string, OperationInfo> = {};
  for (const route of Object.keys(doc.paths).sort()) {
    const item = doc.paths[route]!;
    const shared = (item.parameters as unknown[] | undefined) ?? [];
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isRecord(op)) continue;
      const params = [...shared, ...((op.parameters as unknown[] | undefined) ?? [])].map(
        (p) => deref(doc, p) as ParameterObject,
      );
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
    const schema = deref(doc, p.schema) as Record<string, unknown> | undefined;
    const style = p.style ?? "form";
    query[p.name] = {
      style,
      // OpenAPI's default: explode is true for form style only.
      explode: p.explode ?? style === "form",
      array: schema?.type === "array",
      required: p.required === true,
    };
  }
  const body = deref(doc, op.requestBody) as { content?: Record<string, unknown> } | undefined;
  const requestContentType = body?.content ? Object.keys(body.content)[0] : undefined;
  const { contentType, parseAs, schema } = successResponse(doc, op);
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

/** The first 2xx response of an operation: its content type, how to parse it, its schema. */
export function successResponse(
  doc: OpenApiDocument,
  op: Record<string, unknown>,
): { contentType?: string; parseAs: ParseAs; schema?: unknown } {
  const responses = isRecord(op.responses) ? op.responses : {};
  const code = Object.keys(responses)
    .filter((c) => /^2\d\d$/.test(c))
    .sort()[0];
  const response = code ? (deref(doc, responses[code]) as Record<string, unknown>) : undefined;
  const content = isRecord(response?.content) ? response.content : {};
  const contentType = Object.keys(content)[0];
  if (!contentType) return { parseAs: "empty" };
  const media = content[contentType] as { schema?: unknown } | undefined;
  return { contentType, parseAs: parseAsFor(contentType), schema: media?.schema };
}

export function parseAsFor(contentType: string): ParseAs {
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
  const schema = deref(doc, responseSchema) as { properties?: Record<string, unknown> } | undefined;
  const props = schema?.properties ?? {};
  const arrays = Object.keys(props).filter(
    (k) => (deref(doc, props[k]) as { type?: string } | undefined)?.type === "array",
  );
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
