/**
 * Reading an OpenAPI 3.0 document: one set of helpers for the schema scripts, the emulator and
 * response validation. The document is data, so its nodes are typed loosely.
 */
import { SeqeraError } from "../errors/seqera-error.js";

/** A schema object (or any other node) of the document. */
export type SchemaObject = Record<string, unknown>;

/** The parts of an OpenAPI 3.0 document that are read directly. */
export interface OpenApiDocument {
  openapi: string;
  info: { version: string; title?: string };
  paths: Record<string, Record<string, unknown>>;
  /** Always present once parsed (`schemas` defaults to `{}`), so readers need no checks. */
  components: { schemas: Record<string, SchemaObject>; [key: string]: unknown };
  servers?: { url: string; description?: string }[];
  security?: unknown[];
  [key: string]: unknown;
}

export interface ParameterObject {
  name: string;
  in: string;
  required?: boolean;
  style?: string;
  explode?: boolean;
  schema?: SchemaObject;
}

/** Names an operation: its method (any case) and path template. */
export interface OperationRef {
  method: string;
  path: string;
}

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch"] as const;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The node a local JSON pointer (`#/components/schemas/X`) names, or undefined. */
export function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith("#/")) throw new SeqeraError(`Only local $refs are supported: ${ref}`);
  let node: unknown = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isRecord(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Follows local `$ref`s to the node they name; other nodes are returned as they are. */
export function deref<T = SchemaObject>(doc: unknown, node: unknown): T | undefined {
  let current = node;
  for (let hops = 0; isRecord(current) && typeof current.$ref === "string"; hops++) {
    if (hops > 32) throw new SeqeraError(`$ref cycle at ${current.$ref}`);
    current = resolvePointer(doc, current.$ref);
  }
  return current as T | undefined;
}

/** Returned by a `walkRefs` visitor to end the walk. */
export const STOP = Symbol("stop");

/**
 * Walks every node under `root` and calls `onRef` with each local reference: every `$ref`, and
 * every target of a discriminator's mapping (some variants, such as the audit log's, are named
 * there only). Whatever the visitor returns (say the target, to follow it) is walked too; STOP
 * ends the walk.
 */
export function walkRefs(root: unknown, onRef: (ref: string) => unknown): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      stack.push(...node);
    } else if (isRecord(node)) {
      const mapping = isRecord(node.discriminator) ? node.discriminator.mapping : undefined;
      const refs = [node.$ref, ...(isRecord(mapping) ? Object.values(mapping) : [])];
      for (const ref of refs) {
        if (typeof ref !== "string" || !ref.startsWith("#/")) continue;
        const next = onRef(ref);
        if (next === STOP) return;
        if (next !== undefined) stack.push(next);
      }
      stack.push(...Object.values(node));
    }
  }
}

/** The operation object of `METHOD path`; an error when the document has none. */
export function operationObject(doc: OpenApiDocument, ref: OperationRef): SchemaObject {
  const op = doc.paths[ref.path]?.[ref.method.toLowerCase()];
  if (!isRecord(op))
    throw new SeqeraError(`Operation ${ref.method} ${ref.path} is not in the schema`);
  return op;
}

/** The operation's parameters, those shared by its path first, `$ref`s followed. */
export function operationParameters(doc: OpenApiDocument, ref: OperationRef): ParameterObject[] {
  const shared = doc.paths[ref.path]?.parameters;
  const own = operationObject(doc, ref).parameters;
  return [shared, own]
    .flatMap((list) => (Array.isArray(list) ? list : []))
    .map((p) => deref<ParameterObject>(doc, p)!);
}

export interface SuccessResponse {
  status: number;
  /** The first media type declared; absent when the response has no body. */
  contentType?: string;
  schema?: SchemaObject;
}

/**
 * The lowest 2xx response, the one the client reads and the emulator answers with; 200 with no
 * body when the operation declares none.
 */
export function successResponse(doc: OpenApiDocument, ref: OperationRef): SuccessResponse {
  const responses = operationObject(doc, ref).responses;
  const codes = isRecord(responses) ? Object.keys(responses) : [];
  const code = codes.filter((c) => /^2\d\d$/.test(c)).sort()[0];
  if (!code) return { status: 200 };
  const response = deref(doc, (responses as SchemaObject)[code]);
  const content = isRecord(response?.content) ? response.content : {};
  const contentType = Object.keys(content)[0];
  if (!contentType) return { status: Number(code) };
  const media = deref(doc, content[contentType]);
  const schema = isRecord(media?.schema) ? media.schema : undefined;
  return schema
    ? { status: Number(code), contentType, schema }
    : { status: Number(code), contentType };
}
