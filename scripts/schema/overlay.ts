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
  /** The action's own release range (our extension), over its overlay's. */
  "x-releases"?: string;
}

export interface Overlay {
  file: string;
  title: string;
  /**
   * Releases the overlay's actions apply to (our extension, `x-releases`), unless an action
   * states its own: "*" for every release, else comparators from the evidence, e.g.
   * ">=1.102.0 <1.109.0" (the defect appears in 1.102.0 and is fixed in 1.109.0). A fix made
   * upstream keeps its action for the older releases without failing the newer ones.
   */
  releases?: string;
  actions: OverlayAction[];
}

export interface UnmatchedAction {
  file: string;
  target: string;
  description?: string;
}

/** An action left out because the release is outside the range it states. */
export interface SkippedAction {
  file: string;
  target: string;
  releases: string;
}

export interface OverlayReport {
  /** Overlays with at least one action applied. */
  applied: string[];
  skipped: SkippedAction[];
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
      const releases = typeof doc["x-releases"] === "string" ? doc["x-releases"] : undefined;
      const actions = doc.actions as OverlayAction[];
      for (const action of actions) {
        const range = action["x-releases"] ?? releases;
        if (range === undefined) {
          throw new Error(
            `${file}: action ${action.target} states no releases; give the overlay or the ` +
              `action an x-releases range from the evidence ("*" for every release)`,
          );
        }
        satisfies("0.0.0", range); // a malformed range fails here, at load, naming the file
      }
      return { file, title: String(info.title ?? file), releases, actions };
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
    let applied = false;
    for (const action of overlay.actions) {
      const releases = action["x-releases"] ?? overlay.releases ?? "*";
      if (!satisfies(doc.info.version, releases)) {
        report.skipped.push({ file: overlay.file, target: action.target, releases });
        continue;
      }
      applied = true;
      if (!applyAction(doc, action)) {
        report.unmatched.push({
          file: overlay.file,
          target: action.target,
          ...(action.description ? { description: action.description } : {}),
        });
      }
    }
    if (applied) report.applied.push(overlay.file);
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
