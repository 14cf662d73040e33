import { DIFF_KINDS, type DiffEntry, type DiffKind } from "./diff-schema.js";
import type { SkippedAction, UnmatchedAction } from "./overlay.js";
import type { RuleReport } from "./rules.js";

export interface ReportInput {
  from: string;
  to: string;
  entries: readonly DiffEntry[];
  /** Overlay actions that match nothing in the new release. */
  staleOverlays: readonly UnmatchedAction[];
  /** Overlay actions left out: the new release is outside the releases they state. */
  skippedOverlays?: readonly SkippedAction[];
  /** What each rule of schema/rules.yaml changed in the new release, and in the old one. */
  rules: readonly RuleReport[];
  previousRules: readonly RuleReport[];
  /** What the copying helpers now do with the fields the release added or removed (copies.ts). */
  copies?: readonly string[];
}

/** The report section of each kind; a Record, so a new kind cannot be left out of the report. */
const SECTION: Record<DiffKind, string> = {
  "operation-removed": "Operations",
  "operation-added": "Operations",
  "operation-renamed": "Operations",
  "parameter-removed": "Parameters",
  "parameter-added": "Parameters",
  "parameter-required": "Parameters",
  "body-removed": "Request and response bodies",
  "body-added": "Request and response bodies",
  "content-type-changed": "Request and response bodies",
  "schema-removed": "Schemas",
  "schema-added": "Schemas",
  "property-removed": "Properties",
  "property-added": "Properties",
  "property-required": "Properties",
  "property-optional": "Properties",
  retyped: "Types",
  "union-member-removed": "Types",
  "union-member-added": "Types",
  "nullability-changed": "Types",
  "enum-value-removed": "Enum values",
  "enum-value-added": "Enum values",
};

/** Renders the update report as Markdown: breaking changes first, then compatible ones. */
export function renderReport({
  from,
  to,
  entries,
  staleOverlays,
  skippedOverlays = [],
  rules,
  previousRules,
  copies = [],
}: ReportInput): string {
  const breaking = entries.filter((e) => e.breaking);
  const compatible = entries.filter((e) => !e.breaking);
  const count = (kind: DiffKind): number => entries.filter((e) => e.kind === kind).length;
  const lines = [
    `# Seqera Platform API schema: ${from} → ${to}`,
    "",
    `${count("operation-added")} operations added, ${count("operation-removed")} removed; ` +
      `${count("schema-added")} schemas added, ${count("schema-removed")} removed; ` +
      `${entries.length} changes in all, ${breaking.length} breaking for TypeScript users.`,
    "",
    "Breaking means code that compiled against the old types may not compile against the new " +
      "ones (a removed property or operation, a new required input, a new enum value in a " +
      "response that exhaustive switches must handle).",
    ...section(`Breaking for TypeScript users (${breaking.length})`, breaking),
    ...section(`Compatible (${compatible.length})`, compatible),
    ...rulesSection(from, to, rules, previousRules),
    "",
    `## What the helpers now do with changed fields (${copies.length})`,
    "",
    "Fields of the objects a helper copies (schema/rules.yaml, `copies`), decided by rule:",
    "",
    ...(copies.length > 0 ? copies : ["None."]),
  ];
  if (staleOverlays.length > 0) {
    lines.push("", `## Stale overlays (${staleOverlays.length})`, "");
    lines.push(
      `Overlay actions that match nothing in ${to}; correct or remove them in schema/overlays/:`,
      "",
    );
    for (const u of staleOverlays) {
      lines.push(
        `- stale overlay ${u.file}: \`${u.target}\`${u.description ? ` (${u.description})` : ""}`,
      );
    }
  }
  if (skippedOverlays.length > 0) {
    lines.push("", `## Overlay actions outside their releases (${skippedOverlays.length})`, "");
    lines.push(`Not applied to ${to}, as the releases they state exclude it:`, "");
    for (const s of skippedOverlays) {
      lines.push(`- ${s.file}: \`${s.target}\` (releases ${s.releases})`);
    }
  }
  return lines.join("\n") + "\n";
}

/**
 * How much each rule did in the new release: fixes no one listed, so a reviewer sees their
 * reach (the properties themselves appear above, as the types changed).
 */
function rulesSection(
  from: string,
  to: string,
  rules: readonly RuleReport[],
  previousRules: readonly RuleReport[],
): string[] {
  const lines = ["", `## Rules (${rules.length})`, ""];
  lines.push(`What the rules of schema/rules.yaml changed, on top of the overlays:`, "");
  for (const rule of rules) {
    const before = new Set(previousRules.find((r) => r.name === rule.name)?.touched ?? []);
    const added = rule.touched.filter((p) => !before.has(p)).length;
    lines.push(
      `- ${rule.name}: ${rule.effect} ${rule.touched.length} properties in ${to} ` +
        `(${before.size} in ${from}; ${added} not touched there)`,
    );
  }
  return lines;
}

function section(title: string, entries: readonly DiffEntry[]): string[] {
  const lines = ["", `## ${title}`];
  if (entries.length === 0) return [...lines, "", "None."];
  for (const heading of new Set(DIFF_KINDS.map((k) => SECTION[k]))) {
    const group = entries.filter((e) => SECTION[e.kind] === heading);
    if (group.length === 0) continue;
    lines.push("", `### ${heading}`, "");
    for (const e of group) lines.push(`- \`${e.location}\`: ${e.detail}`);
  }
  return lines;
}
