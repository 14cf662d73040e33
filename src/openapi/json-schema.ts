import { SeqeraError } from "../errors/seqera-error.js";
import { isRecord, type SchemaObject } from "./document.js";

/**
 * Requests and responses read the same schemas differently: readOnly properties are never
 * required of a caller, writeOnly ones never required of the service.
 */
export type Direction = "request" | "response";

const SCHEMA_LISTS = new Set(["allOf", "oneOf", "anyOf"]);
const SCHEMA_VALUES = new Set(["items", "not", "additionalProperties"]);
/** OpenAPI-only keywords with no JSON Schema meaning; `nullable` and `discriminator` are rewritten. */
const DROPPED = new Set(["nullable", "discriminator", "example", "xml", "externalDocs"]);

/**
 * Converts an OpenAPI 3.0 schema object to JSON Schema for Ajv, rewriting
 * `#/components/schemas/X` to `<base>#/$defs/X`. Ajv's own `nullable` support needs a sibling
 * `type`, which the schema often lacks (`allOf: [$ref], nullable: true`), and its
 * `discriminator` support needs a `const` tag in every variant, which the schema never has,
 * so both are rewritten here.
 */
export function toJsonSchema(node: SchemaObject, direction: Direction, base: string): SchemaObject {
  const out: SchemaObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (DROPPED.has(key) || key.startsWith("x-")) continue;
    if (key === "$ref") out.$ref = rewriteRef(value as string, base);
    else if (key === "properties" && isRecord(value)) {
      const required = new Set(Array.isArray(node.required) ? node.required : []);
      out.properties = Object.fromEntries(
        Object.entries(value).map(([k, v]) => {
          const property = toJsonSchema(v as SchemaObject, direction, base);
          // The service (Java, Jackson) reads a null it is sent as the field left out.
          const absent =
            direction === "request" && !required.has(k) && (v as SchemaObject).nullable !== true;
          return [k, absent ? allowNull(property) : property];
        }),
      );
    } else if (key === "required" && Array.isArray(value)) {
      out.required = value.filter((name) => !isHidden(node, name as string, direction));
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      out[key] = value.map((v) => toJsonSchema(v as SchemaObject, direction, base));
    } else if (SCHEMA_VALUES.has(key) && isRecord(value)) {
      out[key] = toJsonSchema(value, direction, base);
    } else out[key] = value;
  }
  const mapping = discriminatorOf(node);
  if (mapping && Array.isArray(node.oneOf)) {
    delete out.oneOf;
    out.allOf = [...((out.allOf as SchemaObject[] | undefined) ?? []), dispatch(mapping, base)];
  }
  return node.nullable === true ? allowNull(out) : out;
}

/** Converts every component schema, for Ajv's `addSchema({ $id: base, $defs })`. */
export function toJsonSchemaDefs(
  schemas: Record<string, SchemaObject>,
  direction: Direction,
  base: string,
): Record<string, SchemaObject> {
  return Object.fromEntries(
    Object.entries(schemas).map(([name, s]) => [name, toJsonSchema(s, direction, base)]),
  );
}

function rewriteRef(ref: string, base: string): string {
  const prefix = "#/components/schemas/";
  if (!ref.startsWith(prefix)) throw new SeqeraError(`Unsupported $ref ${ref}`);
  return `${base}#/$defs/${ref.slice(prefix.length)}`;
}

function isHidden(node: SchemaObject, name: string, direction: Direction): boolean {
  const prop = isRecord(node.properties) ? node.properties[name] : undefined;
  if (!isRecord(prop)) return false;
  return direction === "request" ? prop.readOnly === true : prop.writeOnly === true;
}

export interface Discriminator {
  propertyName: string;
  mapping: Record<string, string>;
}

/** The discriminator of a schema, declared on it or (as the audit-log states do) in its allOf. */
export function discriminatorOf(node: SchemaObject): Discriminator | undefined {
  const candidates = [node, ...((node.allOf as unknown[] | undefined) ?? [])];
  for (const c of candidates) {
    const d = isRecord(c) ? c.discriminator : undefined;
    if (isRecord(d) && typeof d.propertyName === "string" && isRecord(d.mapping)) {
      return d as unknown as Discriminator;
    }
  }
  return undefined;
}

/**
 * The variants rarely differ in their required properties, so plain `oneOf` matches several
 * and fails; the tag picks exactly one, as the service's (Jackson) reader does.
 */
function dispatch({ propertyName, mapping }: Discriminator, base: string): SchemaObject {
  return {
    required: [propertyName],
    properties: { [propertyName]: { enum: Object.keys(mapping) } },
    allOf: Object.entries(mapping).map(([tag, ref]) => ({
      // Without `required` an absent tag would satisfy every `if` and apply every variant.
      if: { required: [propertyName], properties: { [propertyName]: { const: tag } } },
      then: { $ref: rewriteRef(ref, base) },
    })),
  };
}

function allowNull(schema: SchemaObject): SchemaObject {
  if (typeof schema.type === "string" && !schema.$ref) {
    const widened: SchemaObject = { ...schema, type: [schema.type, "null"] };
    if (Array.isArray(schema.enum)) widened.enum = [...schema.enum, null];
    return widened;
  }
  return { anyOf: [schema, { type: "null" }] };
}
