import { readFile } from "node:fs/promises";
import path from "node:path";
import YAML from "yaml";
import { isRecord, type OpenApiDocument } from "../../src/openapi/document.js";
import { SchemaInputError } from "./parse.js";
import { nullableUnlessRequired } from "./rules/nullable-unless-required.js";

/**
 * A rule of the schema pipeline: a fix that follows from how the service behaves, applied to
 * every release after the overlays, so that no one has to list the properties it touches.
 */
interface SchemaRule {
  /** What it does to each property it touches, for reports: "made nullable". */
  effect: string;
  /** Applies the rule to `doc` in place; returns the properties it touched. */
  apply(doc: OpenApiDocument): string[];
}

/** The implementations; schema/rules.yaml declares which run, in which order, and why. */
const RULES: Record<string, SchemaRule> = {
  "nullable-unless-required": { effect: "made nullable", apply: nullableUnlessRequired },
};

export interface DeclaredRule {
  name: string;
  reason: string;
}

export interface RuleReport {
  name: string;
  effect: string;
  /** The properties the rule changed in this release, sorted. */
  touched: string[];
}

export const rulesFile = (root: string): string => path.join(root, "schema", "rules.yaml");

/** Reads schema/rules.yaml; every rule must be known and give its reason. */
export async function loadRules(file: string): Promise<DeclaredRule[]> {
  const text = await readFile(file, "utf8").catch(() => {
    throw new SchemaInputError(`${file} is missing: the pipeline's rules are declared there`);
  });
  const doc: unknown = YAML.parse(text);
  const list = isRecord(doc) ? doc.rules : undefined;
  if (!Array.isArray(list)) throw new SchemaInputError(`${file} has no 'rules' list`);
  return list.map((entry: unknown) => {
    const name = isRecord(entry) ? entry.name : undefined;
    const reason = isRecord(entry) ? entry.reason : undefined;
    if (typeof name !== "string" || !(name in RULES)) {
      throw new SchemaInputError(
        `${file}: unknown rule ${JSON.stringify(name)} (known: ${Object.keys(RULES).join(", ")})`,
      );
    }
    if (typeof reason !== "string" || !reason.trim()) {
      throw new SchemaInputError(`${file}: rule ${name} gives no reason`);
    }
    return { name, reason };
  });
}

/** Applies the declared rules in order, mutating `doc`. */
export function applyRules(doc: OpenApiDocument, rules: readonly DeclaredRule[]): RuleReport[] {
  return rules.map(({ name }) => {
    const rule = RULES[name]!;
    return { name, effect: rule.effect, touched: rule.apply(doc) };
  });
}
