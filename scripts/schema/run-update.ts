import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseFlags } from "./args.js";
import { copiesReport } from "./copies.js";
import { diffDocuments } from "./diff.js";
import { renderReport } from "./diff-report.js";
import {
  downloadHelp,
  explicitSource,
  movePackageVersion,
  pinnedLocations,
  pinnedRelease,
  readPin,
  readPublished,
  writePin,
  type Pin,
  type PublishedRelease,
} from "./pin.js";
import { assertNoStaleOverlays, prepareSchema } from "./pipeline.js";
import { summarize, writeGenerated } from "./run-generate.js";
import {
  obtainRelease,
  readLocation,
  timeoutFromEnv,
  type ObtainedSchema,
  type ObtainOptions,
} from "./source.js";

export interface UpdateOptions {
  /** The project root: schema/pin.json, schema/overlays/ and generated/ live here. */
  root: string;
  /** Command-line arguments: --release <version>, --source <file|url>, --report <file>. */
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
 * `npm run schema:update`: obtains a candidate release (--release, a release of
 * schema/published.yaml; --source or SEQERA_SCHEMA_SOURCE; else the published latest URL),
 * reports what changed against the pinned release, moves the pin (with the new release's
 * permanent URL) and regenerates. Overlay actions that match nothing in the candidate are reported; the pin
 * still moves, but generation then fails until they are fixed, as it would for the pin.
 */
export async function runSchemaUpdate(options: UpdateOptions): Promise<UpdateResult> {
  const started = performance.now();
  const { root, env = process.env, log = console.log } = options;
  const flags = parseFlags(options.argv ?? [], {
    release: { type: "string" },
    source: { type: "string" },
    report: { type: "string" },
  });
  const from = { baseDir: root, timeoutMs: timeoutFromEnv(env) };
  const pin = await readPin(root);
  const published = await readPublished(root);
  const candidate = await obtainCandidate(pin, published, flags, env, from);
  if (candidate.sha256 === pin.sha256) {
    log(`schema:update: ${candidate.origin} is the pinned release ${pin.version}; nothing to do`);
    return { from: pin.version, to: pin.version };
  }
  const next = await prepareSchema(candidate, root, { strict: false });
  const pinned = await prepareSchema(
    await obtainRelease(
      {
        ...pinnedRelease(pin),
        help: `The report needs the pinned release: put its file at ${pinnedLocations(pin)[0]}`,
      },
      pinnedLocations(pin),
      from,
    ),
    root,
    { strict: false, pin },
  );
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
  const permanent = published[to]?.sha256 === candidate.sha256 ? published[to].url : undefined;
  await writePin(root, { ...pin, version: to, sha256: candidate.sha256, permanent });
  await movePackageVersion(root, to);
  log(`schema:update: pin moved ${pin.version} → ${to}; report written to ${reportFile}`);
  if (!permanent) {
    log(
      `schema:update: schema/published.yaml has no permanent url for release ${to} with this ` +
        `sha256: add its row, and its url to schema/pin.json's "permanent", or a clone without ` +
        `the mirror cannot build once ${pin.latest} serves a newer release`,
    );
  }
  assertNoStaleOverlays(next.doc, next.overlays);
  log(summarize(await writeGenerated(next, path.join(root, "generated")), started));
  return { from: pin.version, to, reportFile, report };
}

/** The release to move to: one of schema/published.yaml, a given source, else the latest URL. */
async function obtainCandidate(
  pin: Pin,
  published: Record<string, PublishedRelease>,
  flags: { release?: string; source?: string },
  env: NodeJS.ProcessEnv,
  from: ObtainOptions,
): Promise<ObtainedSchema> {
  const explicit = explicitSource(flags.source, env);
  if (flags.release === undefined) return readLocation(explicit ?? pin.latest, from);
  if (explicit)
    throw new Error("--release and --source (or SEQERA_SCHEMA_SOURCE) exclude each other");
  const row = published[flags.release];
  if (!row) {
    const known = Object.keys(published).join(", ") || "none";
    throw new Error(
      `--release ${flags.release} is not in schema/published.yaml (known: ${known}); add its row or use --source`,
    );
  }
  const mirror = pin.mirror.replaceAll("{version}", flags.release);
  return obtainRelease(
    { version: flags.release, sha256: row.sha256, help: downloadHelp(flags.release, row.url) },
    [mirror, row.url],
    from,
  );
}
