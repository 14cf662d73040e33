import path from "node:path";
import { fileURLToPath } from "node:url";
import { staleFiles, writeAtomically } from "./schema/output.js";
import { SchemaInputError } from "./schema/parse.js";
import { chooseLocations, readPin } from "./schema/pin.js";
import { prepareSchema, verifyPinned } from "./schema/pipeline.js";
import { renderGenerated } from "./schema/render.js";
import { obtainSchema } from "./schema/source.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * npm run generate [-- --source <file|url>] [-- --check]
 * Obtains the pinned schema, verifies its sha256, applies overlays and writes generated/.
 */
async function main(argv: string[]): Promise<number> {
  const started = performance.now();
  const pin = await readPin(root);
  const obtained = await obtainSchema(chooseLocations(pin, argv, process.env), {
    baseDir: root,
    timeoutMs: Number(process.env.SEQERA_SCHEMA_TIMEOUT_MS ?? 30_000),
  });
  verifyPinned(obtained, pin);
  const prepared = await prepareSchema(obtained, root, { strict: true });
  const { files, operations } = await renderGenerated(prepared.doc, prepared.sha256);
  const outDir = path.join(root, "generated");
  if (argv.includes("--check")) {
    const stale = await staleFiles(outDir, files);
    if (stale.length > 0) {
      console.error(
        `generate --check: generated/ is stale or was edited (${stale.join(", ")}); run 'npm run generate'`,
      );
      return 1;
    }
    console.log(`generated/ is up to date with release ${pin.version}`);
    return 0;
  }
  await writeAtomically(outDir, files);
  const schemas = Object.keys(prepared.doc.components?.schemas ?? {}).length;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `generated release ${pin.version}: ${Object.keys(operations).length} operations, ${schemas} schemas, ${seconds}s`,
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    const message = err instanceof Error ? err.message : String(err);
    console.error(`generate: ${message}`);
    if (!(err instanceof SchemaInputError) && process.env.DEBUG) console.error(err);
    process.exit(1);
  },
);
