import path from "node:path";
import { applyOverlays, loadOverlays, type OverlayReport } from "./overlay.js";
import { parseSchema, SchemaInputError, type OpenApiDocument } from "./parse.js";
import type { Pin } from "./pin.js";
import type { ObtainedSchema } from "./source.js";

export interface PreparedSchema {
  doc: OpenApiDocument;
  sha256: string;
  overlays: OverlayReport;
}

/** Checks an obtained schema against the pin: a different release is an error, never a build. */
export function verifyPinned(obtained: ObtainedSchema, pin: Pin): void {
  if (obtained.sha256 === pin.sha256) return;
  let found = "an unknown release";
  try {
    found = `release ${parseSchema(obtained.text, obtained.origin).info.version}`;
  } catch {
    // Not even a schema: the sha256 mismatch is still the clearest thing to say.
  }
  throw new SchemaInputError(
    `sha256 mismatch for ${obtained.origin}: pinned release ${pin.version} (${pin.sha256.slice(0, 12)}…), ` +
      `found ${found} (${obtained.sha256.slice(0, 12)}…); run 'npm run schema:update' to move the pin`,
  );
}

/**
 * Parses the schema and applies our overlays. With `strict` (the pinned release) an overlay
 * action that matches nothing is an error, so a fix made stale by upstream is noticed.
 */
export async function prepareSchema(
  obtained: ObtainedSchema,
  root: string,
  options: { strict: boolean },
): Promise<PreparedSchema> {
  const doc = parseSchema(obtained.text, obtained.origin);
  const overlays = applyOverlays(doc, await loadOverlays(path.join(root, "schema", "overlays")));
  if (options.strict && overlays.unmatched.length > 0) {
    const list = overlays.unmatched.map((u) => `${u.file}: ${u.target}`).join("; ");
    throw new SchemaInputError(
      `${overlays.unmatched.length} overlay action(s) match nothing in release ${doc.info.version} (stale fix?): ${list}`,
    );
  }
  return { doc, sha256: obtained.sha256, overlays };
}
