import {
  deref,
  parameters,
  requestBody,
  type OpenApiDocument,
  type ParameterObject,
  type SchemaObject,
} from "../openapi/operations-document.js";
import type { RouteMatch } from "./router.js";
import { schemaValidator } from "./validator.js";

/** A request as the emulator's handlers see it: parameters typed, body parsed. */
export interface ParsedRequest {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  /** Parsed JSON, multipart fields (files as `File`), or undefined when there is none. */
  body: unknown;
}

export type RequestCheck = { ok: true; request: ParsedRequest } | { ok: false; message: string };

/** The service caps `max` of offset-paged lists. */
export const MAX_PAGE_SIZE = 100;

/** Validates path, query and body against the operation's schema, as the service does. */
export async function checkRequest(
  doc: OpenApiDocument,
  route: RouteMatch,
  url: URL,
  contentType: string | undefined,
  rawBody: Buffer,
): Promise<RequestCheck> {
  const { info } = route;
  const request: ParsedRequest = { params: {}, query: {}, body: undefined };
  for (const param of parameters(doc, info)) {
    if (param.in === "path") {
      const value = coerce(doc, param.schema, route.params[param.name] ?? "");
      const error = checkValue(param, value);
      if (error) return { ok: false, message: error };
      request.params[param.name] = value;
    } else if (param.in === "query") {
      const raw = url.searchParams.getAll(param.name);
      if (raw.length === 0) {
        if (param.required) return invalid(`Required QueryValue [${param.name}] not specified`);
        continue;
      }
      const value = queryValue(doc, param, raw, info.query[param.name]?.explode ?? true);
      const error = checkValue(param, value);
      if (error) return { ok: false, message: error };
      request.query[param.name] = value;
    }
  }
  const maxParam = request.query.max;
  if (
    info.pagination?.style === "offset" &&
    typeof maxParam === "number" &&
    maxParam > MAX_PAGE_SIZE
  ) {
    return invalid(`Query parameter 'max' must be less than or equal to ${MAX_PAGE_SIZE}`);
  }
  const body = await readBody(doc, route, contentType, rawBody);
  if (!body.ok) return body;
  request.body = body.value;
  return { ok: true, request };
}

function invalid(message: string): { ok: false; message: string } {
  return { ok: false, message };
}

function checkValue(param: ParameterObject, value: unknown): string | undefined {
  if (!param.schema) return undefined;
  return schemaValidator("request").check(param.schema, value, `${param.in}.${param.name}`);
}

function queryValue(
  doc: OpenApiDocument,
  param: ParameterObject,
  raw: string[],
  explode: boolean,
): unknown {
  const schema = deref(doc, param.schema);
  if (schema?.type !== "array") return coerce(doc, schema, raw[raw.length - 1]!);
  const items = explode ? raw : raw.flatMap((r) => (r === "" ? [] : r.split(",")));
  return items.map((item) => coerce(doc, schema.items as SchemaObject | undefined, item));
}

/** Text to the parameter's type where it reads as one; otherwise left as text for Ajv to reject. */
function coerce(doc: OpenApiDocument, node: SchemaObject | undefined, raw: string): unknown {
  switch (deref(doc, node)?.type) {
    case "integer":
      return /^-?\d+$/.test(raw) ? Number(raw) : raw;
    case "number":
      return raw.trim() !== "" && Number.isFinite(Number(raw)) ? Number(raw) : raw;
    case "boolean":
      return raw === "true" ? true : raw === "false" ? false : raw;
    default:
      return raw;
  }
}

async function readBody(
  doc: OpenApiDocument,
  route: RouteMatch,
  contentType: string | undefined,
  rawBody: Buffer,
): Promise<{ ok: true; value: unknown } | { ok: false; message: string }> {
  const spec = requestBody(doc, route.info);
  if (!spec || rawBody.length === 0) {
    return spec?.required ? invalid("Required Body not specified") : { ok: true, value: undefined };
  }
  const mediaType = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (!(mediaType in spec.content)) {
    return invalid(`Content type '${mediaType || "none"}' is not supported here`);
  }
  let value: unknown;
  let checked: unknown;
  if (mediaType === "multipart/form-data") {
    try {
      const form = await new Response(new Uint8Array(rawBody), {
        headers: { "content-type": contentType! },
      }).formData();
      value = Object.fromEntries(form.entries());
      // Files are `format: binary` strings to the schema.
      checked = Object.fromEntries(
        [...form.entries()].map(([k, v]) => [k, typeof v === "string" ? v : ""]),
      );
    } catch {
      return invalid("Malformed multipart body");
    }
  } else {
    try {
      value = checked = JSON.parse(rawBody.toString("utf8"));
    } catch {
      return invalid("Malformed JSON body");
    }
  }
  const schema = spec.content[mediaType];
  const error = schema ? schemaValidator("request").check(schema, checked, "body") : undefined;
  return error ? invalid(error) : { ok: true, value };
}
