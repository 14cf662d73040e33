import {
  HTTP_METHODS,
  isRecord,
  type OpenApiDocument,
  type SchemaObject,
} from "../../../src/openapi/document.js";
import { NULLABLE_BY_RULE } from "../../../src/openapi/extensions.js";
import { schemaUsage } from "../usage.js";

const COMPOSITIONS = ["allOf", "oneOf", "anyOf"] as const;

/**
 * The service (Java, Jackson) writes a field it has no value for as `null`, and the published
 * schema says so almost nowhere. So every property of a schema a response reaches is nullable
 * unless the schema lists it as `required` (the generator's mark of a primitive or @NotNull
 * field, never null in the recorded answers). Mutates `doc`; returns the properties it made
 * nullable (`Schema.property`, nested inline ones as `Schema.property.sub`).
 */
export function nullableUnlessRequired(doc: OpenApiDocument): string[] {
  const touched: string[] = [];
  const usage = schemaUsage(doc);
  for (const [name, schema] of Object.entries(doc.components.schemas)) {
    if (usage.get(name)?.response) visit(schema, name, new Set(), touched);
  }
  // Response schemas written inline in an operation, not under components.
  for (const [route, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const responses = isRecord(item[method]) ? item[method].responses : undefined;
      for (const [code, response] of Object.entries(isRecord(responses) ? responses : {})) {
        const content = isRecord(response) && isRecord(response.content) ? response.content : {};
        for (const media of Object.values(content)) {
          const at = `${method.toUpperCase()} ${route} ${code}`;
          if (isRecord(media)) visit(media.schema, at, new Set(), touched);
        }
      }
    }
  }
  return touched.sort();
}

/**
 * Makes the optional properties of `node` nullable, and those of the inline schemas inside it
 * (a `$ref` is left to its own component). `inherited` carries the `required` names of an
 * enclosing schema into its allOf/oneOf/anyOf members, where the properties may be declared.
 */
function visit(node: unknown, at: string, inherited: Set<string>, touched: string[]): void {
  if (!isRecord(node) || typeof node.$ref === "string") return;
  const required = new Set([...inherited, ...stringsOf(node.required)]);
  if (isRecord(node.properties)) {
    for (const key of Object.keys(node.properties)) {
      if (!required.has(key) && makeNullable(node.properties, key)) touched.push(`${at}.${key}`);
      visit(node.properties[key], `${at}.${key}`, new Set(), touched);
    }
  }
  for (const kind of COMPOSITIONS) {
    if (Array.isArray(node[kind])) for (const m of node[kind]) visit(m, at, required, touched);
  }
  visit(node.items, `${at}[]`, new Set(), touched);
  visit(node.additionalProperties, `${at}{}`, new Set(), touched);
}

/**
 * Marks `props[key]` nullable, in the form openapi-typescript renders as `| null`: a `$ref`
 * cannot carry `nullable` (its siblings are ignored), so it is wrapped in a one-member anyOf
 * (an allOf would read as a subtype of a discriminated union and lose its tag).
 * Returns false when there is nothing to do: already nullable, never in a response (writeOnly),
 * or a schema without a type, which admits null already.
 */
function makeNullable(props: Record<string, unknown>, key: string): boolean {
  const prop = props[key];
  if (!isRecord(prop) || prop.nullable === true || prop.writeOnly === true) return false;
  if (typeof prop.$ref === "string") {
    const { $ref, ...siblings } = prop;
    props[key] = { anyOf: [{ $ref }], ...siblings, nullable: true, [NULLABLE_BY_RULE]: true };
    return true;
  }
  if (prop.type === undefined && !COMPOSITIONS.some((k) => Array.isArray(prop[k]))) return false;
  Object.assign(prop as SchemaObject, { nullable: true, [NULLABLE_BY_RULE]: true });
  return true;
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}
