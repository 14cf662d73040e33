import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseFlags } from "./args.js";
import { copiesReport } from "./copies.js";
import { diffDocuments } from "./diff.js";
import { renderReport } from "./diff-report.js";
import {
  latestLocation,
  movePackageVersion,
  pinnedLocations,
  readPin,
  writePin,
  type Pin,
} from "./pin.js";
import {
  assertNoStaleOverlays,
  PinMismatchError,
  prepareSchema,
  type PreparedSchema,
} from "./pipeline.js";
import { summarize, writeGenerated } from "./run-generate.js";
import { obtainSchema, readLocation, timeoutFromEnv } from "./source.js";

export interface UpdateOptions {
  /** The project root: schema/pin.json, schema/overlays/ and generated/ live here. */
  root: string;
  /** Command-line arguments: --source <file|url>, --report <file>. */
  argv?: readonly string[];
  env?: NodeJS.ProcessEnv;
  /** Where progress lines go (the report itself included); console.log by default. */
  log?: (text: string) => void;
}

export interface UpdateResult {
  from: string;
  to: string;
  /** Absent when the candidate is the pinned release (nothing was done). */
  reportFile?: string;
  report?: string;
}

/**
 * `npm run schema:update`: obtains a candidate release (--source, SEQERA_SCHEMA_SOURCE, else
 * the published latest URL), reports what changed against the pinned release, moves the pin
 * and regenerates. Overlay actions that match nothing in the candidate are reported; the pin
 * still moves, but generation then fails until they are fixed, as it would for the pin.
 */
export async function runSchemaUpdate(options: UpdateOptions): Promise<UpdateResult> {
  const started = performance.now();
  const { root, env = process.env, log = console.log } = options;
  const flags = parseFlags(options.argv ?? [], {
    source: { type: "string" },
    report: { type: "string" },
  });
  const timeoutMs = timeoutFromEnv(env);
  const pin = await readPin(root);
  const location = flags.source ?? (env.SEQERA_SCHEMA_SOURCE?.trim() || latestLocation(pin));
  const candidate = await readLocation(location, { baseDir: root, timeoutMs });
  if (candidate.sha256 === pin.sha256) {
    log(`schema:update: ${location} is the pinned release ${pin.version}; nothing to do`);
    return { from: pin.version, to: pin.version };
  }
  const next = await prepareSchema(candidate, root, { strict: false });
  const pinned = await obtainPinned(root, pin, timeoutMs);
  const to = next.doc.info.version;
  const report = renderReport({
    from: pin.version,
    to,
    entries: diffDocuments(pinned.doc, next.doc),
    staleOverlays: next.overlays.unmatched,
    skippedOverlays: next.overlays.skipped,
    rules: next.rules,
    previousRules: pinned.rules,
    copies: copiesReport(pinned.doc, next.doc, next.copyRules),
  });
  const reportFile = path.resolve(
    root,
    flags.report ?? path.join("schema", "downloads", `update-${pin.version}-to-${to}.md`),
  );
  await mkdir(path.dirname(reportFile), { recursive: true });
  await writeFile(reportFile, report);
  log(report);
  await writePin(root, { ...pin, version: to, sha256: candidate.sha256 });
  await movePackageVersion(root, to);
  log(`schema:update: pin moved ${pin.version} → ${to}; report written to ${reportFile}`);
  assertNoStaleOverlays(next.doc, next.overlays);
  log(summarize(await writeGenerated(next, path.join(root, "generated")), started));
  return { from: pin.version, to, reportFile, report };
}

/** The pinned release, to compare against; only the pin's own sources can provide it. */
async function obtainPinned(root: string, pin: Pin, timeoutMs: number): Promise<PreparedSchema> {
  const obtained = await obtainSchema(pinnedLocations(pin), { baseDir: root, timeoutMs });
  return prepareSchema(obtained, root, { strict: false, pin }).catch((err: unknown) => {
    if (!(err instanceof PinMismatchError)) throw err;
    throw new PinMismatchError(
      `${err.message}; the pinned release is needed for the report: put its file where ` +
        `schema/pin.json's first source says`,
    );
  });
}
