import path from "node:path";
import { loadCopies, type CopyRule } from "./copies.js";
import { applyOverlays, loadOverlays, type OverlayReport } from "./overlay.js";
import type { OpenApiDocument } from "../../src/openapi/document.js";
import { parseSchema, SchemaInputError } from "./parse.js";
import type { Pin } from "./pin.js";
import { applyRules, loadRules, rulesFile, type RuleReport } from "./rules.js";
import type { ObtainedSchema } from "./source.js";

export interface PreparedSchema {
  doc: OpenApiDocument;
  sha256: string;
  overlays: OverlayReport;
  /** What each rule of schema/rules.yaml changed, in the order they ran. */
  rules: RuleReport[];
  /** The copying rules of schema/rules.yaml (applied when generated/copies.ts is rendered). */
  copyRules: CopyRule[];
}

/** The obtained file is another release than the pinned one. */
export class PinMismatchError extends SchemaInputError {
  override name = "PinMismatchError";
}

/**
 * Checks a parsed schema against the pin: another release is an error naming both, never a
 * build. Parsing comes first so that an HTML page or a cut file is reported as what it is.
 */
export function verifyPinned(obtained: ObtainedSchema, doc: OpenApiDocument, pin: Pin): void {
  if (obtained.sha256 === pin.sha256) return;
  throw new PinMismatchError(
    `sha256 mismatch for ${obtained.origin}: pinned release ${pin.version} (${pin.sha256.slice(0, 12)}…), ` +
      `found release ${doc.info.version} (${obtained.sha256.slice(0, 12)}…)`,
  );
}

/**
 * Parses the schema, applies the project's overlays, then its rules. With `strict` (the pinned
 * release) an overlay action that matches nothing is an error, so a fix made stale upstream is
 * noticed; otherwise (a candidate release) it is only reported in `overlays.unmatched`.
 */
export async function prepareSchema(
  obtained: ObtainedSchema,
  root: string,
  options: { strict: boolean; pin?: Pin },
): Promise<PreparedSchema> {
  const doc = parseSchema(obtained.text, obtained.origin);
  if (options.pin) verifyPinned(obtained, doc, options.pin);
  const overlays = applyOverlays(doc, await loadOverlays(path.join(root, "schema", "overlays")));
  if (options.strict) assertNoStaleOverlays(doc, overlays);
  const rules = applyRules(doc, await loadRules(rulesFile(root)));
  const copyRules = await loadCopies(rulesFile(root));
  return { doc, sha256: obtained.sha256, overlays, rules, copyRules };
}

export function assertNoStaleOverlays(doc: OpenApiDocument, overlays: OverlayReport): void {
  if (overlays.unmatched.length === 0) return;
  const list = overlays.unmatched.map((u) => `${u.file}: ${u.target}`).join("; ");
  throw new SchemaInputError(
    `${overlays.unmatched.length} overlay action(s) match nothing in release ${doc.info.version} ` +
      `(stale fix? correct or remove it in schema/overlays/): ${list}`,
  );
}
