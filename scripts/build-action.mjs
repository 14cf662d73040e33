/**
 * The GitHub Action's bundle: src/action/main.ts and everything it imports, lazily imported
 * modules and the generated operation table included, as ONE ES module that runs with nothing
 * beside it (no node_modules, no schema, no network). action.yml runs it with the runner's
 * node24; the release workflow commits it to the release tag only, and test/action builds it
 * with this same script.
 *
 *   node scripts/build-action.mjs [outfile]   (default dist/action/index.mjs)
 *
 * Needs `generated/` (npm ci writes it). undici is bundled, so that a runner behind a proxy
 * (HTTPS_PROXY) is served as by the CLI; the other optional peer dependencies (ioredis, ajv) are
 * left out: their features (SEQERA_RATE_LIMIT_REDIS, response validation) are then a
 * ConfigurationError naming the package (docs/github-action.md).
 */
import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const DEFAULT_OUTFILE = join(root, "dist", "action", "index.mjs");

const BUNDLED_PEER = "undici";

/**
 * The proxy's fetch (src/http/proxy.ts) checks that undici can be resolved before it imports it;
 * in the bundle it always can: that module's `createRequire` answers for undici itself.
 */
const bundledPeer = {
  name: "bundled-peer",
  setup(builder) {
    builder.onResolve({ filter: /^node:module$/ }, ({ importer }) =>
      importer.endsWith(join("src", "http", "proxy.ts"))
        ? { path: "bundled-peer", namespace: "bundled-peer" }
        : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: "bundled-peer" }, () => ({
      contents: `import { createRequire as nodeRequire } from "node:module";
export function createRequire(from) {
  const require = nodeRequire(from);
  const resolve = (name, options) => (name === ${JSON.stringify(BUNDLED_PEER)} ? name : require.resolve(name, options));
  return Object.assign((name) => require(name), require, { resolve });
}`,
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
  await build({
    absWorkingDir: root,
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
    external: Object.keys(pkg.peerDependencies ?? {}).filter((name) => name !== BUNDLED_PEER),
    plugins: [bundledPeer],
    // Bundled CommonJS code (none is expected) would need `require`: give it Node's.
    banner: {
      js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
    },
    logLevel: "warning",
  });
  return statSync(outfile).size;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const outfile = resolve(process.argv[2] ?? DEFAULT_OUTFILE);
  const size = await buildAction(outfile);
  console.log(`${outfile}: ${(size / 1024).toFixed(0)} kB`);
}
