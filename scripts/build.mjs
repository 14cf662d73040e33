/**
 * `npm run build`: dist/ as the package ships it.
 *
 * - tsc compiles src/ and generated/ (scripts/tsconfig.build.json): the .d.ts files, the types
 *   consumers see, come from it unchanged.
 * - esbuild bundles its JavaScript from the three entry points (the main entry, `./testing`,
 *   the CLI) into one module each, with shared and lazily imported code in dist/src/chunks/:
 *   a plain `import "seqera-api-client"` reads a few files, not seventy. The compiled modules
 *   the bundles replace are removed. Dependencies stay external, except `yaml`, bundled into
 *   the chunk that only YAML params load (its 1.4 MB package would otherwise be installed by
 *   every consumer), and `leven` and `openapi-fetch`, bundled with the client (each package an
 *   import resolves adds to its start-up). Their licenses ship beside them in dist/src/chunks/.
 * - generated/openapi.json, read only by validateResponses, the CLI and the emulator, ships
 *   minified and brotli-compressed (openapi/load.ts decompresses it).
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { brotliCompressSync, constants } from "node:zlib";
import { build } from "esbuild";

const dist = "dist";
rmSync(dist, { recursive: true, force: true });
execFileSync(
  process.execPath,
  ["node_modules/typescript/bin/tsc", "-p", "scripts/tsconfig.build.json"],
  {
    stdio: "inherit",
  },
);

/**
 * The operation table, as JSON.parse of a string: V8 parses JSON several times faster than the
 * same object literal, and the table is the biggest part of the main entry.
 */
const operationsAsJson = {
  name: "operations-as-json",
  setup(builder) {
    builder.onLoad({ filter: /[\\/]generated[\\/]operations\.js$/ }, async ({ path }) => {
      const { operations, ...others } = await import(pathToFileURL(path).href);
      if (Object.keys(others).length > 0) throw new Error(`${path} exports more than operations`);
      const json = JSON.stringify(JSON.stringify(operations));
      return { contents: `export const operations = JSON.parse(${json});\n`, loader: "js" };
    });
  },
};

const pkg = JSON.parse(readFileSync("package.json", "utf8"));
// Bundled rather than imported at run time: each package an import resolves costs its
// start-up; openapi-fetch stays a dependency for the types (.d.ts files import it).
const bundled = new Set(["yaml", "leven", "openapi-fetch", "jsonc-parser"]);
const entries = ["index.js", "testing/index.js", "cli/main.js"].map((entry) =>
  join(dist, "src", entry),
);
const result = await build({
  entryPoints: entries,
  outdir: join(dist, "src"),
  outbase: join(dist, "src"),
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  allowOverwrite: true,
  metafile: true,
  legalComments: "inline",
  external: [
    ...Object.keys(pkg.dependencies ?? {}),
    ...Object.keys(pkg.peerDependencies ?? {}),
  ].filter((name) => !bundled.has(name)),
  logLevel: "warning",
  plugins: [operationsAsJson],
  // yaml's ES build (its package gives Node the CommonJS one, which esbuild cannot bundle as ESM).
  alias: { yaml: "./node_modules/yaml/browser/index.js" },
});

// The compiled modules now inside a bundle: gone, their .d.ts stay.
const outputs = new Set(Object.keys(result.metafile.outputs).map((file) => join(file)));
for (const file of readdirSync(dist, { recursive: true, encoding: "utf8" })) {
  const path = join(dist, file);
  if (path.endsWith(".js") && !outputs.has(path)) rmSync(path);
}
for (const name of bundled) {
  const license = readdirSync(join("node_modules", name)).find((f) => /^licen[cs]e/i.test(f));
  copyFileSync(join("node_modules", name, license), join(dist, "src", "chunks", `${name}.LICENSE`));
}

const document = JSON.stringify(JSON.parse(readFileSync("generated/openapi.json", "utf8")));
writeFileSync(
  join(dist, "generated", "openapi.json.br"),
  brotliCompressSync(document, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_SIZE_HINT]: document.length,
    },
  }),
);
