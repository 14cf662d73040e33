import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import type { OpenApiDocument } from "../../src/openapi/document.js";

const BLOB = ts.factory.createTypeReferenceNode("Blob");
const STRING = ts.factory.createKeywordTypeNode(ts.SyntaxKind.StringKeyword);
const NULL = ts.factory.createLiteralTypeNode(ts.factory.createNull());
/** Record<string, unknown> */
const FREE_FORM = ts.factory.createTypeReferenceNode("Record", [
  STRING,
  ts.factory.createKeywordTypeNode(ts.SyntaxKind.UnknownKeyword),
]);

/**
 * Generates the `paths`/`components`/`operations` types. Choices, deliberately:
 * - alphabetized output, so a regenerated release diffs by content, not by upstream order;
 * - readOnly/writeOnly become $Read/$Write markers, which openapi-fetch strips per direction;
 * - `format: binary` is Blob (uploads take a Blob/File; downloads come back as Blob), except in
 *   text/* responses (logs, CSV exports), which the client reads as text: string;
 * - int64 stays `number`: the service's int64 ids fit in 2^53 and JSON.parse yields numbers,
 *   so `bigint` would be a type the runtime never produces;
 * - `type: object` with nothing else (Java's Map or Object) is `Record<string, unknown>`, an
 *   object with any members, as JSON Schema reads it; openapi-typescript's `Record<string,
 *   never>` admits only `{}`, so no real value could be read or sent.
 */
export async function generateTypes(doc: OpenApiDocument): Promise<string> {
  const ast = await openapiTS(structuredClone(doc) as never, {
    alphabetize: true,
    readWriteMarkers: true,
    silent: true,
    transform(schema, options) {
      const nullable = (type: ts.TypeNode): ts.TypeNode =>
        schema.nullable ? ts.factory.createUnionTypeNode([type, NULL]) : type;
      if (isFreeForm(schema as Record<string, unknown>)) return nullable(FREE_FORM);
      if (schema.format !== "binary") return undefined;
      if (/\/responses\/.*\/content\/text~1/.test(options.path ?? "")) return STRING;
      return nullable(BLOB);
    },
  });
  return astToString(ast);
}

function isFreeForm(schema: Record<string, unknown>): boolean {
  if (schema.type !== "object") return false;
  const shaping = ["properties", "additionalProperties", "allOf", "oneOf", "anyOf", "enum"];
  return shaping.every((key) => schema[key] === undefined);
}
