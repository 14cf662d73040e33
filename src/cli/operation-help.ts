import type { OperationInfo } from "../../generated/operations.js";
import {
  deref,
  isRecord,
  loadDocument,
  parameters,
  requestBody,
  successResponse,
  type OpenApiDocument,
  type SchemaObject,
} from "../openapi/operations-document.js";

/** `seqera-api <operation> --help`: what the schema says of it, in the CLI's terms. */
export function operationHelp(info: OperationInfo): string {
  const doc = loadDocument();
  const op = doc.paths[info.path]?.[info.method.toLowerCase()] as Record<string, unknown>;
  const lines = [`${info.operationId}: ${info.method} ${info.path}`];
  if (typeof op.summary === "string") lines.push(op.summary);
  if (typeof op.description === "string" && op.description !== op.summary)
    lines.push("", op.description);
  const params = parameters(doc, info);
  for (const [where, flag, title] of [
    ["path", "-p", "Path parameters"],
    ["query", "-q", "Query parameters"],
  ] as const) {
    const rows = params
      .filter((p) => p.in === where)
      .map((p) => {
        const notes = [p.required ? "required" : "", defaultOf(info, p.name)].filter(Boolean);
        const text = [describe(p), ...notes.map((n) => `(${n})`)].join(" ");
        return row(`${flag} ${p.name}=`, typeName(doc, p.schema), text);
      });
    if (rows.length) lines.push("", `${title}:`, ...rows);
  }
  const body = requestBody(doc, info);
  const mediaType = info.requestContentType;
  if (body && mediaType) {
    const required = body.required ? ", required" : "";
    lines.push(
      "",
      `Request body (${mediaType}${required}): -F key=value, -f key=value, --input file.json`,
    );
    lines.push(...fieldRows(doc, deref(doc, body.content[mediaType]), "", 0, new Set()));
  }
  if (info.pagination) {
    lines.push(
      "",
      `A list: --paginate prints every item of "${info.pagination.items}" as one JSON line.`,
    );
  }
  const response = successResponse(doc, info);
  lines.push(
    "",
    `Response: ${response.status} ${response.contentType ?? "(no body)"} ${typeName(doc, response.schema)}`.trimEnd(),
  );
  // What the answer holds, enum values included (a studio's status is lowercase `running`).
  lines.push(...fieldRows(doc, deref(doc, unwrap(response.schema)), "", 0, new Set()));
  return `${lines.join("\n")}\n`;
}

function defaultOf(info: OperationInfo, name: string): string {
  return name === "workspaceId" && info.query.workspaceId
    ? "default: --workspace, TOWER_WORKSPACE_ID"
    : "";
}

function describe(node: object | undefined): string {
  const description = (node as { description?: unknown } | undefined)?.description;
  return typeof description === "string" ? description.replace(/\s+/g, " ").trim() : "";
}

function row(name: string, type: string, text: string): string {
  return `  ${name.padEnd(30)} ${type.padEnd(20)} ${text}`.trimEnd();
}

/** The body's fields as -F keys (launch.pipeline), nested objects expanded a few levels. */
function fieldRows(
  doc: OpenApiDocument,
  schema: SchemaObject | undefined,
  prefix: string,
  depth: number,
  seen: Set<SchemaObject>,
): string[] {
  if (!schema || !isRecord(schema.properties) || seen.has(schema) || depth > 2) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const inner = new Set(seen).add(schema);
  return Object.entries(schema.properties)
    .flatMap(([name, raw]) => {
      const node = unwrap(raw);
      const array = deref(doc, node)?.type === "array";
      const child = deref(doc, unwrap(array ? deref(doc, node)!.items : node));
      const key = `${prefix}${name}${array ? "[]" : ""}`;
      const notes = [describe(child), required.has(name) ? "(required)" : ""]
        .filter(Boolean)
        .join(" ");
      return [
        row(array ? key.slice(0, -2) : key, typeName(doc, raw), notes),
        ...fieldRows(doc, child, `${key}.`, depth + 1, inner),
      ];
    })
    .concat(variantRows(doc, schema, prefix));
}

/**
 * A discriminated base's variants (SecurityKeys: aws, azure, …), a row each naming the fields
 * that value of the discriminator brings, so that `-F` keys can be written for them.
 */
function variantRows(doc: OpenApiDocument, schema: SchemaObject, prefix: string): string[] {
  const { discriminator } = schema;
  if (!isRecord(discriminator) || !isRecord(discriminator.mapping)) return [];
  const property =
    typeof discriminator.propertyName === "string" ? discriminator.propertyName : "discriminator";
  return Object.entries(discriminator.mapping).map(([value, ref]) => {
    const variant = deref(doc, { $ref: ref });
    const fields = isRecord(variant?.properties)
      ? Object.keys(variant.properties).filter((name) => name !== property)
      : [];
    return row(
      `${prefix}${property}=${value}`,
      String(ref).split("/").pop()!,
      fields.length ? `with ${fields.join(", ")}` : "",
    );
  });
}

/** The one schema a nullable or annotated wrapper stands for: `anyOf: [{ $ref }]`, `allOf: [...]`. */
function unwrap(node: unknown): unknown {
  if (!isRecord(node) || node.$ref !== undefined) return node;
  const parts = (node.anyOf ?? node.allOf) as unknown[] | undefined;
  return Array.isArray(parts) && parts.length === 1 ? parts[0] : node;
}

/** A schema's type in a word: a component's name, `string[]`, `a|b` for enums. */
function typeName(doc: OpenApiDocument, raw: unknown): string {
  const node = unwrap(raw);
  if (!isRecord(node)) return "";
  if (typeof node.$ref === "string") {
    const name = node.$ref.split("/").pop()!;
    const target = deref(doc, node);
    return Array.isArray(target?.enum) ? `${name} (${target.enum.join("|")})` : name;
  }
  if (Array.isArray(node.enum)) return node.enum.join("|");
  if (node.type === "array") return `${typeName(doc, node.items) || "any"}[]`;
  if (node.format === "binary") return "file";
  if (typeof node.type === "string") return node.format === "date-time" ? "date-time" : node.type;
  return "object";
}
