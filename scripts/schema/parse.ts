import YAML from "yaml";
import {
  isRecord,
  resolvePointer,
  STOP,
  walkRefs,
  type OpenApiDocument,
} from "../../src/openapi/document.js";

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
  // Readers can then take `components.schemas` as given.
  const components = isRecord(doc.components) ? doc.components : (doc.components = {});
  if (!isRecord(components.schemas)) components.schemas = {};
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
