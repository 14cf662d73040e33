/**
 * The GitHub Action's bundle: src/action/main.ts and everything it imports, lazily imported
 * modules and the generated operation table included, as ONE ES module that runs with nothing
 * beside it (no node_modules, no schema, no network). action.yml runs it with the runner's
 * node24; the release workflow commits it to the release tag only, and test/action builds it
 * with this same script.
 *
 *   node scripts/build-action.mjs [outfile]   (default dist/action/index.mjs)
 *
 * Needs `generated/` (npm ci writes it). undici and ioredis are bundled, so that a runner behind
 * a proxy (HTTPS_PROXY) or sharing the rate limit through Redis (SEQERA_RATE_LIMIT_REDIS) is
 * served as by the CLI; response validation's ajv is left out (the Action does not validate).
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const DEFAULT_OUTFILE = join(root, "dist", "action", "index.mjs");

/** The optional peer dependencies bundled: proxies (HTTPS_PROXY) and Redis (SEQERA_RATE_LIMIT_REDIS). */
const BUNDLED_PEERS = ["undici", "ioredis"];
const OPTIONAL = join(root, "src", "core", "optional-dependency.ts");

/**
 * The library finds an optional peer dependency at run time: the proxy's fetch
 * (src/http/proxy.ts) checks that undici resolves before importing it, and importOptional
 * (src/core/optional-dependency.ts) imports a package by a name it is given, which esbuild
 * cannot follow. In the bundle, both answer for the bundled peers from the bundle itself.
 */
const bundledPeers = {
  name: "bundled-peers",
  setup(builder) {
    const known = JSON.stringify(BUNDLED_PEERS);
    builder.onResolve({ filter: /^node:module$/ }, ({ importer }) =>
      importer.endsWith(join("src", "http", "proxy.ts"))
        ? { path: "node:module", namespace: "bundled-peers" }
        : undefined,
    );
    builder.onResolve({ filter: /optional-dependency\.js$/ }, () => ({
      path: "optional-dependency",
      namespace: "bundled-peers",
    }));
    builder.onLoad({ filter: /^node:module$/, namespace: "bundled-peers" }, () => ({
      contents: `import { createRequire as nodeRequire } from "node:module";
export function createRequire(from) {
  const require = nodeRequire(from);
  const resolve = (name, options) => (${known}.includes(name) ? name : require.resolve(name, options));
  return Object.assign((name) => require(name), require, { resolve });
}`,
      resolveDir: root,
    }));
    builder.onLoad({ filter: /^optional-dependency$/, namespace: "bundled-peers" }, () => ({
      contents: `import { importOptional as fromNode } from ${JSON.stringify(OPTIONAL)};
const bundled = { ${BUNDLED_PEERS.map((name) => `${JSON.stringify(name)}: () => import(${JSON.stringify(name)})`).join(", ")} };
export const importOptional = (name, ...rest) => (bundled[name] ?? (() => fromNode(name, ...rest)))();
export { requireOptional } from ${JSON.stringify(OPTIONAL)};`,
      resolveDir: root,
    }));
  },
};

/** Builds the bundle into `outfile`; resolves with its size in bytes. */
export async function buildAction(outfile = DEFAULT_OUTFILE) {
  if (!existsSync(join(root, "generated", "operations.ts"))) {
    throw new Error("generated/ is missing: run `npm ci` (or `npm run generate`) first.");
  }
  const pkg = (await import(join(root, "package.json"), { with: { type: "json" } })).default;
  const { metafile } = await build({
    absWorkingDir: root,
    metafile: true,
    entryPoints: ["src/action/main.ts"],
    outfile,
    bundle: true,
    // No splitting: lazily imported modules are inlined, so the bundle is one file.
    splitting: false,
    format: "esm",
    platform: "node",
    target: "node20",
    minify: true,
    legalComments: "eof",
    // yaml's ES build (its package gives Node the CommonJS one).
    alias: { yaml: "./node_modules/yaml/browser/index.js" },
    external: Object.keys(pkg.peerDependencies ?? {}).filter(
      (name) => !BUNDLED_PEERS.includes(name),
    ),
    plugins: [bundledPeers],
    // Bundled CommonJS code (none is expected) would need `require`: give it Node's.
    banner: {
      js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
    },
    logLevel: "warning",
  });
  writeLicenses(metafile, join(dirname(outfile), LICENSES));
  return statSync(outfile).size;
}

/** Beside the bundle: the license of each package bundled in it (their terms ask for it). */
export const LICENSES = "THIRD_PARTY_LICENSES.txt";

function writeLicenses(metafile, file) {
  const packages = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const found = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (found) packages.add(found[1]);
  }
  const texts = [...packages].sort().map((name) => {
    const dir = join(root, "node_modules", name);
    const license = readdirSync(dir).find((f) => /^licen[cs]e/i.test(f));
    if (!license) throw new Error(`${name} is bundled but has no license file in ${dir}`);
    return `${name}\n\n${readFileSync(join(dir, license), "utf8").trim()}\n`;
  });
  writeFileSync(file, texts.join(`\n${"-".repeat(72)}\n\n`));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const outfile = resolve(process.argv[2] ?? DEFAULT_OUTFILE);
  const size = await buildAction(outfile);
  console.log(`${outfile}: ${(size / 1024).toFixed(0)} kB`);
}
