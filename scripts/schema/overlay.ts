import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { JSONPath } from "jsonpath-plus";
import YAML from "yaml";
import { isRecord, type OpenApiDocument } from "../../src/openapi/document.js";
import { satisfies } from "./versions.js";

/** One action of an OpenAPI Overlay 1.0 document. */
export interface OverlayAction {
  target: string;
  description?: string;
  update?: unknown;
  remove?: boolean;
}

export interface Overlay {
  file: string;
  title: string;
  /**
   * Releases the overlay applies to (e.g. "<1.140.0"); absent means all. Our extension: a defect
   * fixed upstream keeps its overlay for older releases without failing the pinned build.
   */
  releases?: string;
  actions: OverlayAction[];
}

export interface UnmatchedAction {
  file: string;
  target: string;
  description?: string;
}

export interface OverlayReport {
  applied: string[];
  skipped: string[];
  unmatched: UnmatchedAction[];
}

export async function loadOverlays(dir: string): Promise<Overlay[]> {
  const files = (await readdir(dir)).filter((f) => /\.ya?ml$/.test(f)).sort();
  return Promise.all(
    files.map(async (file) => {
      const doc: unknown = YAML.parse(await readFile(path.join(dir, file), "utf8"));
      if (!isRecord(doc) || doc.overlay !== "1.0.0" || !Array.isArray(doc.actions)) {
        throw new Error(`${file} is not an OpenAPI Overlay 1.0.0 document`);
      }
      const info = isRecord(doc.info) ? doc.info : {};
      return {
        file,
        title: String(info.title ?? file),
        releases: typeof doc["x-releases"] === "string" ? doc["x-releases"] : undefined,
        actions: doc.actions as OverlayAction[],
      };
    }),
  );
}

/**
 * Applies overlays in order, mutating `doc`. Actions whose target matches nothing are returned,
 * not thrown: the caller decides whether that is an error (the pinned release) or a report.
 */
export function applyOverlays(doc: OpenApiDocument, overlays: readonly Overlay[]): OverlayReport {
  const report: OverlayReport = { applied: [], skipped: [], unmatched: [] };
  for (const overlay of overlays) {
    if (overlay.releases && !satisfies(doc.info.version, overlay.releases)) {
      report.skipped.push(overlay.file);
      continue;
    }
    for (const action of overlay.actions) {
      if (!applyAction(doc, action)) {
        report.unmatched.push({
          file: overlay.file,
          target: action.target,
          ...(action.description ? { description: action.description } : {}),
        });
      }
    }
    report.applied.push(overlay.file);
  }
  return report;
}

interface Match {
  value: unknown;
  parent: unknown;
  parentProperty: string | number;
}

/** Returns whether the target matched anything. */
export function applyAction(doc: OpenApiDocument, action: OverlayAction): boolean {
  const matches = JSONPath({
    path: action.target,
    json: doc,
    resultType: "all",
    wrap: true,
  }) as Match[];
  if (matches.length === 0) return false;
  if (action.remove) {
    // Remove from the back so array indices of earlier matches stay valid.
    for (const match of [...matches].reverse()) {
      if (Array.isArray(match.parent)) match.parent.splice(Number(match.parentProperty), 1);
      else if (isRecord(match.parent)) delete match.parent[match.parentProperty];
    }
    return true;
  }
  for (const match of matches) {
    if (Array.isArray(match.value) && Array.isArray(action.update)) {
      match.value.push(...structuredClone(action.update));
    } else if (isRecord(match.value) && isRecord(action.update)) {
      mergeInto(match.value, action.update);
    } else {
      throw new Error(
        `overlay target ${action.target} is not an object or array; update its parent instead`,
      );
    }
  }
  return true;
}

/** Overlay 1.0 merge: objects merge recursively, arrays append, anything else is replaced. */
function mergeInto(target: Record<string, unknown>, update: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(update)) {
    const current = target[key];
    if (isRecord(current) && isRecord(value)) mergeInto(current, value);
    else if (Array.isArray(current) && Array.isArray(value))
      current.push(...structuredClone(value));
    else target[key] = structuredClone(value);
  }
}
