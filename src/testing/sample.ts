import {
  deref,
  isRecord,
  type OpenApiDocument,
  type SchemaObject,
} from "../openapi/operations-document.js";
import { discriminatorOf, type Direction } from "../openapi/json-schema.js";

export interface SampleOptions {
  direction: Direction;
  /**
   * Only required properties and empty arrays: the least a caller must send. Otherwise every
   * property the direction allows and arrays of one element, so that a response exercises
   * the reader as a real one would.
   */
  minimal: boolean;
  /**
   * Responses only: a property the schema marks `nullable` and does not require is `null`
   * in about half of the schemas' properties, picked by a stable hash of "Schema.property",
   * as the service (Java) writes an absent value. Default false.
   */
  nulls?: boolean;
}

/** A fixed instant, in the service's timestamp form, so that answers are reproducible. */
export const SAMPLE_DATE_TIME = "2024-01-01T00:00:00Z";

const OMIT = Symbol("omit");
type Sampled = unknown | typeof OMIT;

/**
 * A deterministic value that validates against `schema`. A `$ref` met again while it is being
 * expanded is left out (or its array left empty), which keeps recursive schemas finite.
 */
export function sampleSchema(
  doc: OpenApiDocument,
  schema: SchemaObject,
  options: SampleOptions,
  /** The property or parameter the value is for; strings are sampled from it. */
  name = "value",
): unknown {
  const value = sample(doc, schema, options, [], name);
  return value === OMIT ? null : value;
}

function sample(
  doc: OpenApiDocument,
  node: SchemaObject,
  options: SampleOptions,
  stack: string[],
  name: string,
): Sampled {
  if (typeof node.$ref === "string") {
    if (stack.includes(node.$ref)) return OMIT;
    const target = deref(doc, node)!;
    return sample(doc, target, options, [...stack, node.$ref], name);
  }
  if (Array.isArray(node.enum)) return node.enum[0];
  const mapping = discriminatorOf(node);
  if (mapping && Array.isArray(node.oneOf)) {
    const [tag, ref] = Object.entries(mapping.mapping)[0]!;
    const variant = sample(doc, { $ref: ref }, options, stack, name);
    return isRecord(variant) ? { ...variant, [mapping.propertyName]: tag } : variant;
  }
  const alternatives = (node.oneOf ?? node.anyOf) as SchemaObject[] | undefined;
  if (alternatives?.[0]) return sample(doc, alternatives[0], options, stack, name);
  if (Array.isArray(node.allOf)) return sampleAllOf(doc, node, options, stack, name);
  switch (node.type) {
    case "array":
      return sampleArray(doc, node, options, stack, name);
    case "string":
      return sampleString(node, name);
    case "integer":
    case "number":
      return sampleNumber(node);
    case "boolean":
      return false;
    default:
      return sampleObject(doc, node, options, stack);
  }
}

function sampleAllOf(
  doc: OpenApiDocument,
  node: SchemaObject,
  options: SampleOptions,
  stack: string[],
  name: string,
): Sampled {
  let merged: Sampled = OMIT;
  const parts = [
    ...(node.allOf as SchemaObject[]),
    ...(node.properties ? [{ ...node, allOf: undefined }] : []),
  ];
  for (const part of parts) {
    const value = sample(doc, part, options, stack, name);
    if (value === OMIT) continue;
    merged = isRecord(merged) && isRecord(value) ? { ...merged, ...value } : value;
  }
  return merged;
}

function sampleObject(
  doc: OpenApiDocument,
  node: SchemaObject,
  options: SampleOptions,
  stack: string[],
): Sampled {
  const required = new Set((node.required as string[] | undefined) ?? []);
  const hidden = options.direction === "request" ? "readOnly" : "writeOnly";
  const out: Record<string, unknown> = {};
  const owner = stack[stack.length - 1]?.split("/").pop() ?? "";
  for (const [key, prop] of Object.entries(
    (node.properties as Record<string, SchemaObject>) ?? {},
  )) {
    if (prop[hidden] === true || (options.minimal && !required.has(key))) continue;
    if (options.nulls && options.direction === "response" && !required.has(key)) {
      if (prop.nullable === true && sendsNull(`${owner}.${key}`)) {
        out[key] = null;
        continue;
      }
    }
    const value = sample(doc, prop, options, stack, key);
    if (value !== OMIT) out[key] = value;
  }
  return out;
}

function sampleArray(
  doc: OpenApiDocument,
  node: SchemaObject,
  options: SampleOptions,
  stack: string[],
  name: string,
): unknown[] {
  const min = typeof node.minItems === "number" ? node.minItems : 0;
  if (options.minimal && min === 0) return [];
  const item = sample(doc, (node.items as SchemaObject) ?? {}, options, stack, name);
  return item === OMIT ? [] : [item];
}

function sampleString(node: SchemaObject, name: string): string {
  switch (node.format) {
    case "date-time":
      return SAMPLE_DATE_TIME;
    case "email":
      return "user@example.com";
    case "binary":
      return "";
  }
  // The property's own name reads well in an answer and fits the schema's few name patterns.
  let value = /^[A-Za-z][A-Za-z0-9]*$/.test(name) ? name : "value";
  if (typeof node.maxLength === "number") value = value.slice(0, node.maxLength);
  if (typeof node.minLength === "number") value = value.padEnd(node.minLength, "x");
  return value;
}

function sampleNumber(node: SchemaObject): number {
  let value = 1;
  if (typeof node.minimum === "number") value = Math.max(value, Math.ceil(node.minimum));
  if (typeof node.maximum === "number") value = Math.min(value, Math.floor(node.maximum));
  return value;
}

/** Whether the sample of a nullable property is null: FNV-1a of its name, even or odd. */
export function sendsNull(qualifiedName: string): boolean {
  let hash = 0x811c9dc5;
  for (let i = 0; i < qualifiedName.length; i++) {
    hash = Math.imul(hash ^ qualifiedName.charCodeAt(i), 0x01000193) >>> 0;
  }
  return hash % 2 === 0;
}
