import path from "node:path";
import { parseFlags } from "./args.js";
import { copiedFields } from "./copies.js";
import { staleFiles, writeAtomically } from "./output.js";
import { SchemaInputError } from "./parse.js";
import { explicitSource, mirrorFileName, pinnedLocations, pinnedRelease, readPin } from "./pin.js";
import { PinMismatchError, prepareSchema, type PreparedSchema } from "./pipeline.js";
import type { Rendered } from "./render.js";
import { obtainRelease, readLocation, timeoutFromEnv } from "./source.js";

export interface GenerateOptions {
  /** The project root: schema/pin.json and schema/overlays/ are read from here. */
  root: string;
  /** Command-line arguments: --source <file|url>, --out <dir>, --check. */
  argv?: readonly string[];
  env?: NodeJS.ProcessEnv;
}

/**
 * `npm run generate`: obtains the pinned schema, verifies it, applies overlays and writes
 * generated/ (or checks it with --check). Returns the one summary line; throws on failure,
 * leaving the output directory as it was.
 */
export async function runGenerate(options: GenerateOptions): Promise<string> {
  const started = performance.now();
  const { root, env = process.env } = options;
  const flags = parseFlags(options.argv ?? [], {
    source: { type: "string" },
    out: { type: "string" },
    check: { type: "boolean" },
  });
  const outDir = path.resolve(root, flags.out ?? "generated");
  const pin = await readPin(root);
  const from = { baseDir: root, timeoutMs: timeoutFromEnv(env) };
  const explicit = explicitSource(flags.source, env, {
    baseDir: root,
    file: mirrorFileName(pin, pin.version),
  });
  const obtained = explicit
    ? await readLocation(explicit, from)
    : await obtainRelease(pinnedRelease(pin), pinnedLocations(pin), from);
  const prepared = await prepareSchema(obtained, root, { strict: true, pin }).catch((err) => {
    if (!(err instanceof PinMismatchError)) throw err;
    throw new PinMismatchError(`${err.message}; run 'npm run schema:update' to move the pin`);
  });
  if (flags.check) {
    const { files } = await render(prepared);
    const stale = await staleFiles(outDir, files);
    if (stale.length > 0) {
      throw new SchemaInputError(
        `${path.relative(root, outDir) || outDir}/ is stale or was edited (${stale.join(", ")}); ` +
          `run 'npm run generate'`,
      );
    }
    return `generated/ is up to date with release ${pin.version}`;
  }
  return summarize(await writeGenerated(prepared, outDir), started);
}

export interface GeneratedCounts {
  version: string;
  operations: number;
  schemas: number;
}

/** Renders and atomically writes the output directory for an already prepared schema. */
export async function writeGenerated(
  prepared: PreparedSchema,
  outDir: string,
): Promise<GeneratedCounts> {
  const { files, operations } = await render(prepared);
  await writeAtomically(outDir, files);
  return {
    version: prepared.doc.info.version,
    operations: Object.keys(operations).length,
    schemas: Object.keys(prepared.doc.components?.schemas ?? {}).length,
  };
}

/**
 * The renderer pulls in typescript and openapi-typescript (seconds to load); loading
 * it only once the input is known good lets bad input fail at once.
 */
async function render(prepared: PreparedSchema): Promise<Rendered> {
  const { renderGenerated } = await import("./render.js");
  return renderGenerated(
    prepared.doc,
    prepared.sha256,
    copiedFields(prepared.doc, prepared.copyRules),
  );
}

export function summarize(counts: GeneratedCounts, started: number): string {
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  return (
    `generated release ${counts.version}: ${counts.operations} operations, ` +
    `${counts.schemas} schemas, ${seconds}s`
  );
}
