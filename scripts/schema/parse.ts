import YAML from "yaml";

/** The subset of an OpenAPI 3.0 document the pipeline reads directly. */
export interface OpenApiDocument {
  openapi: string;
  info: { version: string; title?: string };
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, unknown>; [key: string]: unknown };
  servers?: { url: string; description?: string }[];
  [key: string]: unknown;
}

/** A schema that cannot be used; its message is the one line the CLI prints. */
export class SchemaInputError extends Error {
  override name = "SchemaInputError";
}

/**
 * Parses and sanity-checks a published schema. Truncated or substituted input (an HTML error
 * page, a cut download) must fail here, before anything is generated from it.
 */
export function parseSchema(text: string, origin: string): OpenApiDocument {
  if (/^\s*</.test(text)) {
    throw new SchemaInputError(`${origin} is an HTML/XML page, not an OpenAPI document`);
  }
  let doc: unknown;
  try {
    doc = YAML.parse(text, { maxAliasCount: -1 });
  } catch (err) {
    const first = String((err as Error).message)
      .split("\n")[0]!
      .replace(/:\s*$/, "");
    throw new SchemaInputError(`${origin} is not valid YAML or JSON (truncated?): ${first}`);
  }
  if (!isRecord(doc)) {
    throw new SchemaInputError(`${origin} is not an OpenAPI document (no top-level mapping)`);
  }
  const version = doc.openapi;
  if (typeof version !== "string") {
    throw new SchemaInputError(
      `${origin} is not an OpenAPI 3.0 document (no 'openapi' field; truncated?)`,
    );
  }
  if (!/^3\.0\.\d+$/.test(version)) {
    throw new SchemaInputError(`${origin} is OpenAPI ${version}; only 3.0.x is supported`);
  }
  if (!isRecord(doc.info) || typeof doc.info.version !== "string") {
    throw new SchemaInputError(`${origin} has no info.version`);
  }
  if (!isRecord(doc.paths) || Object.keys(doc.paths).length === 0) {
    throw new SchemaInputError(`${origin} has no paths (truncated?)`);
  }
  const dangling = findDanglingRef(doc);
  if (dangling) {
    throw new SchemaInputError(`${origin} has a $ref to a missing ${dangling} (truncated?)`);
  }
  return doc as OpenApiDocument;
}

/** First local `$ref` that does not resolve, if any: the usual sign of a cut-off document. */
function findDanglingRef(doc: Record<string, unknown>): string | undefined {
  let dangling: string | undefined;
  walkRefs(doc, (ref) => {
    if (resolvePointer(doc, ref) !== undefined) return undefined;
    dangling = ref;
    return STOP;
  });
  return dangling;
}

/** Returned by a `walkRefs` visitor to end the walk. */
export const STOP = Symbol("stop");

/**
 * Walks every node under `root` and calls `onRef` with each local `$ref`. Whatever the visitor
 * returns (say the ref's target, to follow it) is walked too; STOP ends the walk.
 */
export function walkRefs(root: unknown, onRef: (ref: string) => unknown): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      stack.push(...node);
    } else if (isRecord(node)) {
      const ref = node.$ref;
      if (typeof ref === "string" && ref.startsWith("#/")) {
        const next = onRef(ref);
        if (next === STOP) return;
        if (next !== undefined) stack.push(next);
      }
      stack.push(...Object.values(node));
    }
  }
}

export function resolvePointer(doc: unknown, ref: string): unknown {
  let node: unknown = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isRecord(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Follows local `$ref`s (bounded, so a cycle cannot hang) to the node they name. */
export function deref(doc: unknown, node: unknown): unknown {
  let current = node;
  for (let hops = 0; isRecord(current) && typeof current.$ref === "string" && hops < 32; hops++) {
    current = resolvePointer(doc, current.$ref);
  }
  return current;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
