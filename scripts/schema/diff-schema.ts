import { isRecord } from "../../src/openapi/document.js";
import type { Usage } from "./usage.js";

/** The kinds of change the update report lists, in the order its sections appear. */
export const DIFF_KINDS = [
  "operation-removed",
  "operation-added",
  "operation-renamed",
  "parameter-removed",
  "parameter-added",
  "parameter-required",
  "body-removed",
  "body-added",
  "content-type-changed",
  "schema-removed",
  "schema-added",
  "property-removed",
  "property-added",
  "property-required",
  "property-optional",
  "retyped",
  "union-member-removed",
  "union-member-added",
  "nullability-changed",
  "enum-value-removed",
  "enum-value-added",
] as const;

export type DiffKind = (typeof DIFF_KINDS)[number];

/** One change between two releases, judged from the side of code written against the types. */
export interface DiffEntry {
  kind: DiffKind;
  /** `GET /workflow`, `GET /workflow query parameter status`, `Workflow.status`, … */
  location: string;
  detail: string;
  /** Whether code that compiled against the old types may stop compiling (or misbehave). */
  breaking: boolean;
}

/**
 * The TypeScript-visible shape of a schema node, without nullability, enum values and object
 * properties (compared on their own). int32/int64 and float/double are all `number`, so a
 * format change that the types do not show is not reported.
 */
export function typeSignature(node: unknown): string {
  if (!isRecord(node)) return "any";
  let sig: string;
  const composition = (["allOf", "oneOf", "anyOf"] as const).find((k) => Array.isArray(node[k]));
  const members = composition ? (node[composition] as unknown[]) : [];
  if (typeof node.$ref === "string") {
    sig = node.$ref.slice(node.$ref.lastIndexOf("/") + 1);
  } else if (members.length === 1) {
    // `allOf: [$ref]` (a ref with siblings, in OpenAPI 3.0) is the referenced type itself.
    sig = typeSignature(members[0]);
  } else if (composition) {
    // Member order does not change a TypeScript union or intersection.
    sig = `${composition}(${members.map(typeSignature).sort().join(", ")})`;
  } else if (node.type === "array") {
    sig = `${typeSignature(node.items)}[]`;
  } else if (isRecord(node.additionalProperties)) {
    sig = `Record<string, ${typeSignature(node.additionalProperties)}>`;
  } else if (node.type === "object" || isRecord(node.properties)) {
    sig = "object";
  } else if (node.type === "string" && node.format === "binary") {
    sig = "binary";
  } else if (node.type === "integer" || node.type === "number") {
    sig = "number";
  } else {
    sig = typeof node.type === "string" ? node.type : "any";
  }
  return Array.isArray(node.enum) ? `${sig} enum` : sig;
}

/**
 * Compares one schema node of two releases (a component schema, a property, a parameter's or a
 * body's schema), appending what changed. `$ref`s are compared by name only: the referenced
 * component is compared once, under its own name.
 */
export function diffSchemaNode(
  before: unknown,
  after: unknown,
  location: string,
  usage: Usage,
  out: DiffEntry[],
): void {
  if (diffUnion(before, after, location, usage, out)) return;
  const oldSig = typeSignature(before);
  const newSig = typeSignature(after);
  if (oldSig !== newSig) {
    out.push({ kind: "retyped", location, detail: `${oldSig} → ${newSig}`, breaking: true });
    return;
  }
  if (!isRecord(before) || !isRecord(after)) return;
  diffNullability(before, after, location, usage, out);
  diffEnum(before.enum, after.enum, location, usage, out);
  if (before.type === "array")
    diffSchemaNode(before.items, after.items, `${location}[]`, usage, out);
  diffProperties(before, after, location, usage, out);
}

/**
 * A oneOf/anyOf on both sides is compared member by member, like an enum: a new member of a
 * response union is a case that exhaustive narrowing must handle. Returns whether it applied.
 */
function diffUnion(
  before: unknown,
  after: unknown,
  location: string,
  usage: Usage,
  out: DiffEntry[],
): boolean {
  const kind = unionKind(before);
  if (!kind || kind !== unionKind(after)) return false;
  const oldMembers = ((before as Record<string, unknown[]>)[kind] ?? []).map(typeSignature);
  const newMembers = ((after as Record<string, unknown[]>)[kind] ?? []).map(typeSignature);
  for (const member of newMembers.filter((m) => !oldMembers.includes(m))) {
    out.push({
      kind: "union-member-added",
      location,
      detail: usage.response
        ? `${member} added; exhaustive narrowing of responses needs a case`
        : `${member} added`,
      breaking: usage.response,
    });
  }
  for (const member of oldMembers.filter((m) => !newMembers.includes(m))) {
    out.push({
      kind: "union-member-removed",
      location,
      detail: `${member} removed; code that sends or narrows to it no longer compiles`,
      breaking: true,
    });
  }
  return true;
}

function unionKind(node: unknown): "oneOf" | "anyOf" | undefined {
  if (!isRecord(node) || node.$ref) return undefined;
  if (Array.isArray(node.oneOf) && node.oneOf.length > 1) return "oneOf";
  if (Array.isArray(node.anyOf) && node.anyOf.length > 1) return "anyOf";
  return undefined;
}

function diffNullability(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  location: string,
  usage: Usage,
  out: DiffEntry[],
): void {
  const was = before.nullable === true;
  const is = after.nullable === true;
  if (was === is) return;
  out.push(
    is
      ? {
          kind: "nullability-changed",
          location,
          detail: "may now be null",
          breaking: usage.response,
        }
      : {
          kind: "nullability-changed",
          location,
          detail: "no longer nullable",
          breaking: usage.request,
        },
  );
}

function diffEnum(
  before: unknown,
  after: unknown,
  location: string,
  usage: Usage,
  out: DiffEntry[],
): void {
  if (!Array.isArray(before) || !Array.isArray(after)) return;
  for (const value of after.filter((v) => !before.includes(v))) {
    out.push({
      kind: "enum-value-added",
      location,
      detail: usage.response
        ? `${JSON.stringify(value)} added; exhaustive switches over responses need a case`
        : `${JSON.stringify(value)} added`,
      breaking: usage.response,
    });
  }
  for (const value of before.filter((v) => !after.includes(v))) {
    out.push({
      kind: "enum-value-removed",
      location,
      detail: `${JSON.stringify(value)} removed; code that sends or compares it no longer compiles`,
      breaking: true,
    });
  }
}

function diffProperties(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  location: string,
  usage: Usage,
  out: DiffEntry[],
): void {
  const oldProps = ownProperties(before);
  const newProps = ownProperties(after);
  const oldRequired = requiredNames(before);
  const newRequired = requiredNames(after);
  for (const name of Object.keys(oldProps)) {
    if (name in newProps) continue;
    out.push({
      kind: "property-removed",
      location: `${location}.${name}`,
      detail: usage.response
        ? "removed; reads of it no longer compile"
        : "removed; writers setting it no longer compile",
      breaking: true,
    });
  }
  for (const name of Object.keys(newProps)) {
    const at = `${location}.${name}`;
    if (!(name in oldProps)) {
      const required = newRequired.has(name);
      out.push({
        kind: "property-added",
        location: at,
        detail: required ? "added, required" : "added, optional",
        breaking: required && usage.request,
      });
      continue;
    }
    if (newRequired.has(name) && !oldRequired.has(name)) {
      out.push({
        kind: "property-required",
        location: at,
        detail: "now required",
        breaking: usage.request,
      });
    } else if (oldRequired.has(name) && !newRequired.has(name)) {
      out.push({
        kind: "property-optional",
        location: at,
        detail: "now optional; reads may see undefined",
        breaking: usage.response,
      });
    }
    diffSchemaNode(oldProps[name], newProps[name], at, usage, out);
  }
}

/** Properties declared on the node itself or on its inline allOf members (not on `$ref`s). */
function ownProperties(node: Record<string, unknown>): Record<string, unknown> {
  const members = Array.isArray(node.allOf) ? node.allOf.filter((m) => isRecord(m) && !m.$ref) : [];
  const props: Record<string, unknown> = {};
  for (const member of [node, ...members] as Record<string, unknown>[]) {
    if (isRecord(member.properties)) Object.assign(props, member.properties);
  }
  return props;
}

function requiredNames(node: Record<string, unknown>): Set<string> {
  const members = Array.isArray(node.allOf) ? node.allOf : [];
  const names = new Set<string>();
  for (const member of [node, ...members]) {
    if (isRecord(member) && Array.isArray(member.required)) {
      for (const name of member.required) names.add(String(name));
    }
  }
  return names;
}
