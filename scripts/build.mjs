/**
 * `npm run build`: dist/ as the package ships it.
 *
 * - tsc compiles src/ and generated/ (scripts/tsconfig.build.json): the .d.ts files, the types
 *   consumers see, come from it unchanged; those no public type reaches are removed.
 * - esbuild bundles the JavaScript in two builds: the main entry into one module (dist/src/
 *   index.js), and the CLI and `./testing` with their shared and lazily imported code in
 *   dist/src/chunks/; the client and the error classes they use come from the main entry. The
 *   compiled modules the bundles replace are removed (the GitHub Action's among them: its bundle
 *   is scripts/build-action.mjs's). Dependencies stay external, except
 *   `yaml`, bundled once into dist/src/chunks/yaml.js, which only YAML params load (its 1.4 MB
 *   package would otherwise be installed by every consumer), and `leven`, `openapi-fetch` and
 *   `jsonc-parser`, bundled with their users (each package an import resolves adds to its
 *   start-up). Their licenses ship beside them in dist/src/chunks/.
 * - generated/openapi.json, read only by validateResponses, the CLI and the emulator, ships
 *   minified and brotli-compressed (openapi/load.ts decompresses it).
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
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
const external = [
  ...Object.keys(pkg.dependencies ?? {}),
  ...Object.keys(pkg.peerDependencies ?? {}),
].filter((name) => !bundled.has(name));

// yaml, read only by YAML params, once for both builds below: its own module, imported lazily
// as "#yaml" (package.json "imports"). Its ES build: the package gives Node the CommonJS one,
// which esbuild cannot bundle as ESM.
const yamlModule = join(dist, "src", "chunks", "yaml.js");
const yaml = await build({
  entryPoints: ["node_modules/yaml/browser/index.js"],
  outfile: yamlModule,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  metafile: true,
  legalComments: "inline",
  logLevel: "warning",
});
const sharedYaml = {
  name: "shared-yaml",
  setup(builder) {
    builder.onResolve({ filter: /^yaml$/ }, () => ({ path: "#yaml", external: true }));
  },
};

/**
 * For the CLI and the emulator: the client and the error classes it exports come from the main entry (the
 * package's own name, resolved by Node to dist/src/index.js), so a process that loads both has
 * one copy of each class (`instanceof` holds across entries) and of the per-token limiters.
 */
const publicErrors = new Set(
  [...readFileSync("src/errors/index.ts", "utf8").matchAll(/from "\.\/([^"]+)\.js"/g)].map(
    ([, name]) => resolve(dist, "src", "errors", `${name}.js`),
  ),
);
const mainEntry = {
  name: "main-entry",
  setup(builder) {
    // The error classes the main entry exports; the errors' helpers are bundled with their users.
    const shared = (file) => file === resolve(dist, "src", "index.js") || publicErrors.has(file);
    builder.onResolve({ filter: /^\./ }, ({ path, resolveDir, importer }) => {
      if (importer === "" || !shared(resolve(resolveDir, path))) return undefined;
      return { path: pkg.name, external: true };
    });
  },
};

const options = (entries, plugins) => ({
  entryPoints: entries.map((entry) => join(dist, "src", entry)),
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
  external,
  logLevel: "warning",
  plugins: [operationsAsJson, sharedYaml, ...plugins],
});
// Two builds: the main entry on its own, so that `import "seqera-api-client"` reads one file
// (chunks shared with the CLI and the emulator would split it into eight, each costing the
// import its resolution and compilation: 13 → 8.5 ms measured); the CLI and the emulator share
// chunks between them. The client's code is then shipped twice (~230 kB), which the import time
// is worth.
const results = [
  yaml,
  await build(options(["index.js"], [])),
  await build(options(["testing/index.js", "cli/main.js"], [mainEntry])),
];

// The compiled modules now inside a bundle: gone, their .d.ts stay.
const outputs = new Set(
  results.flatMap((result) => Object.keys(result.metafile.outputs)).map((file) => join(file)),
);
for (const file of readdirSync(dist, { recursive: true, encoding: "utf8" })) {
  const path = join(dist, file);
  if (path.endsWith(".js") && !outputs.has(path)) rmSync(path);
}
// Declarations no public type reaches (the CLI's, the emulator's routes, the call path's
// internals): gone. Consumers never read them, and each takes a disk block of its own.
const reached = new Set();
const reach = (file) => {
  if (reached.has(file)) return;
  reached.add(file);
  for (const [, specifier] of readFileSync(file, "utf8").matchAll(
    /(?:from |import\()"(\.[^"]+)\.js"/g,
  )) {
    reach(join(dirname(file), `${specifier}.d.ts`));
  }
};
for (const entry of ["index.d.ts", "testing/index.d.ts"]) reach(join(dist, "src", entry));
for (const file of readdirSync(dist, { recursive: true, encoding: "utf8" })) {
  const path = join(dist, file);
  if (path.endsWith(".d.ts") && !reached.has(path)) rmSync(path);
}
for (const name of bundled) {
  const license = readdirSync(join("node_modules", name)).find((f) => /^licen[cs]e/i.test(f));
  copyFileSync(join("node_modules", name, license), join(dist, "src", "chunks", `${name}.LICENSE`));
}

// The require() entries: CommonJS consumers get the same ES modules (Node loads them by
// require() since 20.19 and 22.12; none of ours has a top-level await), through a .cjs file typed
// by a .d.cts, so resolvers that judge the file by its extension see CommonJS.
mkdirSync(join(dist, "cjs"));
for (const [entry, module] of [
  ["index", "../src/index.js"],
  ["testing", "../src/testing/index.js"],
]) {
  writeFileSync(join(dist, "cjs", `${entry}.cjs`), `module.exports = require("${module}");\n`);
  writeFileSync(join(dist, "cjs", `${entry}.d.cts`), `export * from "${module}";\n`);
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
