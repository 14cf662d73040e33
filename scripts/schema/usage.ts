import {
  HTTP_METHODS,
  isRecord,
  resolvePointer,
  walkRefs,
  type OpenApiDocument,
} from "../../src/openapi/document.js";

/** Which direction a component schema travels in: sent by the client, read by it, or both. */
export interface Usage {
  request: boolean;
  response: boolean;
}

const SCHEMA_REF = "#/components/schemas/";

/**
 * For each component schema, whether an operation's parameters or request body reach it
 * (request) and whether a response reaches it (response), following `$ref`s transitively.
 * Whether a change breaks a TypeScript user depends on this: a new enum value breaks an
 * exhaustive switch over a response, not a request someone writes.
 */
export function schemaUsage(doc: OpenApiDocument): Map<string, Usage> {
  const request = new Set<string>();
  const response = new Set<string>();
  for (const item of Object.values(doc.paths)) {
    const shared = item.parameters;
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isRecord(op)) continue;
      collect(doc, [shared, op.parameters, op.requestBody], request);
      collect(doc, op.responses, response);
    }
  }
  const usage = new Map<string, Usage>();
  for (const name of Object.keys(doc.components?.schemas ?? {})) {
    usage.set(name, { request: request.has(name), response: response.has(name) });
  }
  return usage;
}

/** Adds every component schema name reachable from `node` to `seen`. */
function collect(doc: OpenApiDocument, node: unknown, seen: Set<string>): void {
  const followed = new Set<string>();
  walkRefs(node, (ref) => {
    if (ref.startsWith(SCHEMA_REF)) seen.add(ref.slice(SCHEMA_REF.length));
    if (followed.has(ref)) return undefined;
    followed.add(ref);
    return resolvePointer(doc, ref);
  });
}
