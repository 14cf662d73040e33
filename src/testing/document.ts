import { readFileSync } from "node:fs";
import type { OperationInfo } from "../../generated/operations.js";

/** A schema object of the OpenAPI 3.0 document, kept loose: the document is data, not types. */
export type SchemaObject = Record<string, unknown>;

export interface ParameterObject {
  name: string;
  in: string;
  required?: boolean;
  schema?: SchemaObject;
}

interface MediaObject {
  schema?: SchemaObject;
}

interface OperationObject {
  parameters?: unknown[];
  requestBody?: { required?: boolean; content?: Record<string, MediaObject> } | SchemaObject;
  responses?: Record<string, unknown>;
  security?: unknown[];
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, SchemaObject> };
  security?: unknown[];
}

let cached: OpenApiDocument | undefined;

/**
 * The overlaid schema that `npm run generate` writes; read once per process, because an
 * emulator is typically started once per test file.
 */
export function loadDocument(): OpenApiDocument {
  cached ??= JSON.parse(
    readFileSync(new URL("../../generated/openapi.json", import.meta.url), "utf8"),
  ) as OpenApiDocument;
  return cached;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Follows local `$ref`s ("#/components/..."); other nodes are returned as they are. */
export function deref<T = SchemaObject>(doc: OpenApiDocument, node: unknown): T | undefined {
  let current = node;
  for (let hops = 0; isRecord(current) && typeof current.$ref === "string"; hops++) {
    if (hops > 32) throw new Error(`$ref cycle at ${current.$ref}`);
    current = pointer(doc, current.$ref);
  }
  return current as T | undefined;
}

function pointer(doc: OpenApiDocument, ref: string): unknown {
  if (!ref.startsWith("#/")) throw new Error(`Only local $refs are supported: ${ref}`);
  let node: unknown = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    node = isRecord(node) ? node[key] : undefined;
  }
  return node;
}

function operationObject(doc: OpenApiDocument, info: OperationInfo): OperationObject {
  const op = doc.paths[info.path]?.[info.method.toLowerCase()];
  if (!isRecord(op)) throw new Error(`Operation ${info.method} ${info.path} is not in the schema`);
  return op as OperationObject;
}

export function parameters(doc: OpenApiDocument, info: OperationInfo): ParameterObject[] {
  const shared = (doc.paths[info.path]?.parameters as unknown[] | undefined) ?? [];
  const own = operationObject(doc, info).parameters ?? [];
  return [...shared, ...own].map((p) => deref<ParameterObject>(doc, p)!);
}

export interface RequestBodyInfo {
  required: boolean;
  /** Media types the operation accepts, in the schema's order, with their schemas. */
  content: Record<string, SchemaObject | undefined>;
}

export function requestBody(
  doc: OpenApiDocument,
  info: OperationInfo,
): RequestBodyInfo | undefined {
  const body = deref<{ required?: boolean; content?: Record<string, MediaObject> }>(
    doc,
    operationObject(doc, info).requestBody,
  );
  if (!body?.content) return undefined;
  const content: Record<string, SchemaObject | undefined> = {};
  for (const [type, media] of Object.entries(body.content)) content[type] = media.schema;
  return { required: body.required === true, content };
}

export interface SuccessResponseInfo {
  status: number;
  contentType?: string;
  schema?: SchemaObject;
}

/** The lowest 2xx response, the one the generated operation table describes too. */
export function successResponse(doc: OpenApiDocument, info: OperationInfo): SuccessResponseInfo {
  const responses = operationObject(doc, info).responses ?? {};
  const code = Object.keys(responses)
    .filter((c) => /^2\d\d$/.test(c))
    .sort()[0];
  if (!code) return { status: 200 };
  const response = deref<{ content?: Record<string, MediaObject> }>(doc, responses[code]);
  const contentType = Object.keys(response?.content ?? {})[0];
  if (!contentType) return { status: Number(code) };
  return { status: Number(code), contentType, schema: response!.content![contentType]!.schema };
}

/** Whether the schema asks for a bearer token; a few operations (service-info, GA4GH) do not. */
export function requiresToken(doc: OpenApiDocument, info: OperationInfo): boolean {
  const security = operationObject(doc, info).security ?? doc.security ?? [];
  return security.length > 0;
}
