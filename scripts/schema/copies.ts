import { readFile } from "node:fs/promises";
import YAML from "yaml";
import { deref, isRecord, type OpenApiDocument } from "../../src/openapi/document.js";
import { SchemaInputError } from "./parse.js";

/**
 * An object a helper copies field by field (schema/rules.yaml, `copies`): which fields of the
 * `target` schema it copies is decided by rule, the `default` for every field but the `except`ed
 * ones, so a release adding a field needs no code change, and the report says what became of it.
 */
export interface CopyRule {
  name: string;
  /** The helper, as the report names it: "toLaunchRequest (src/automation/launch.ts)". */
  helper: string;
  target: string;
  /**
   * The schemas the helper copies from (those a release has): a field none of them nor the
   * target lists was added by a later release, and the helper decides what to do with it.
   */
  sources: string[];
  default: "copied" | "not copied";
  reason: string;
  /** Fields that do not follow the default, each with why. */
  except: Record<string, string>;
}

export async function loadCopies(file: string): Promise<CopyRule[]> {
  const doc: unknown = YAML.parse(await readFile(file, "utf8"));
  const list = isRecord(doc) ? (doc.copies ?? []) : [];
  if (!Array.isArray(list)) throw new SchemaInputError(`${file}: 'copies' is not a list`);
  return list.map((entry: unknown) => {
    const e = isRecord(entry) ? entry : {};
    const strings = ["name", "helper", "target", "reason"] as const;
    for (const key of strings) {
      if (typeof e[key] !== "string" || !(e[key] as string).trim()) {
        throw new SchemaInputError(`${file}: a copies entry has no '${key}'`);
      }
    }
    if (e.default !== "copied" && e.default !== "not copied") {
      throw new SchemaInputError(
        `${file}: copies ${String(e.name)}: default is 'copied' or 'not copied'`,
      );
    }
    const except = isRecord(e.except) ? e.except : {};
    const sources = Array.isArray(e.sources) ? e.sources.map(String) : [];
    return {
      name: e.name as string,
      helper: e.helper as string,
      target: e.target as string,
      sources,
      default: e.default,
      reason: e.reason as string,
      except: Object.fromEntries(Object.entries(except).map(([k, v]) => [k, String(v)])),
    };
  });
}

/**
 * The properties of a component schema, its `allOf` members' included (those `keep` accepts,
 * given the property's schema); undefined if absent.
 */
export function schemaFields(
  doc: OpenApiDocument,
  name: string,
  keep: (property: unknown) => boolean = () => true,
): string[] | undefined {
  const schema = doc.components?.schemas?.[name];
  if (!isRecord(schema)) return undefined;
  const fields = new Set<string>();
  const visit = (node: unknown): void => {
    const s = deref(doc, node);
    if (!s) return;
    if (isRecord(s.properties)) {
      for (const [key, property] of Object.entries(s.properties)) {
        if (keep(deref(doc, property) ?? property)) fields.add(key);
      }
    }
    if (Array.isArray(s.allOf)) s.allOf.forEach(visit);
  };
  visit(schema);
  return [...fields].sort();
}

/**
 * The fields the schema marks readOnly in each platform's compute environment configuration
 * (`ComputeConfig`'s discriminator mapping), for generated/copies.ts: toComputeEnvRequest drops
 * them, since the service writes them and refuses or ignores them in a request.
 */
export function readOnlyConfigFields(doc: OpenApiDocument): Record<string, string[]> {
  const config = doc.components?.schemas?.ComputeConfig;
  const mapping =
    isRecord(config) && isRecord(config.discriminator) ? config.discriminator.mapping : undefined;
  const result: Record<string, string[]> = {};
  if (!isRecord(mapping)) return result;
  for (const [platform, ref] of Object.entries(mapping).sort(([a], [b]) => a.localeCompare(b))) {
    const name = String(ref).split("/").pop()!;
    const readOnly = schemaFields(doc, name, (p) => isRecord(p) && p.readOnly === true) ?? [];
    if (readOnly.length > 0) result[platform] = readOnly;
  }
  return result;
}

/** Whether the helper copies `field`: the default, unless the rule excepts it. */
export const copies = (rule: CopyRule, field: string): boolean =>
  field in rule.except ? rule.default !== "copied" : rule.default === "copied";

/** What generated/copies.ts holds, per rule: the fields copied, and every field the release knows. */
export interface CopiedFields {
  copied: Record<string, string[]>;
  known: Record<string, string[]>;
}

/**
 * The copied fields of each rule in `doc`, and the fields its target and sources list, for
 * generated/copies.ts. A release without a rule's target schema is refused: the helper named
 * would have nothing to copy into.
 */
export function copiedFields(doc: OpenApiDocument, rules: readonly CopyRule[]): CopiedFields {
  const result: CopiedFields = { copied: {}, known: {} };
  for (const rule of rules) {
    const fields = schemaFields(doc, rule.target);
    if (!fields) {
      throw new SchemaInputError(
        `release ${doc.info.version} has no schema ${rule.target}, which ${rule.helper} copies ` +
          `into (schema/rules.yaml, copies ${rule.name}); the helper must change for this release`,
      );
    }
    result.copied[rule.name] = fields.filter((field) => copies(rule, field));
    const known = new Set(fields);
    for (const source of rule.sources)
      for (const f of schemaFields(doc, source) ?? []) known.add(f);
    result.known[rule.name] = [...known].sort();
  }
  return result;
}

/**
 * The report's account of each copied object between two releases: every field added (and what
 * the helper now does with it, by rule) and every field removed (which the helper no longer sends).
 */
export function copiesReport(
  from: OpenApiDocument,
  to: OpenApiDocument,
  rules: readonly CopyRule[],
): string[] {
  const lines: string[] = [];
  for (const rule of rules) {
    const before = new Set(schemaFields(from, rule.target) ?? []);
    const after = schemaFields(to, rule.target);
    if (!after) {
      lines.push(`- \`${rule.target}\`: removed; ${rule.helper} needs it and must change`);
      continue;
    }
    for (const field of after.filter((f) => !before.has(f))) {
      const why = rule.except[field] ?? `the default for ${rule.name} (${rule.reason.trim()})`;
      lines.push(
        `- \`${rule.target}.${field}\`: added; ${rule.helper} ` +
          `${copies(rule, field) ? "copies it" : "does not copy it"}: ${why}`,
      );
    }
    for (const field of [...before].filter((f) => !after.includes(f))) {
      lines.push(
        `- \`${rule.target}.${field}\`: removed; ${rule.helper} no longer ` +
          `${copies(rule, field) ? "copies" : "handles"} it`,
      );
    }
  }
  return lines;
}
