import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const source = (file: string): string => fileURLToPath(new URL(`../src/${file}`, import.meta.url));

export default defineConfig({
  // Examples import the package by name, as a downstream repo does; here that name means our
  // sources (tsconfig.json maps it the same way for the type-check). The packed tarball is
  // tested separately.
  resolve: {
    alias: [
      {
        find: /^seqera-api-client\/testing$/,
        replacement: source("testing/index.ts"),
      },
      { find: /^seqera-api-client$/, replacement: source("index.ts") },
    ],
  },
  test: {
    root: new URL("..", import.meta.url).pathname,
    include: ["test/**/*.test.ts"],
    reporters: ["default", "./test/summary-reporter.ts"],
    globalSetup: ["./test/setup/inputs.ts", "./test/setup/cli-build.ts"],
    setupFiles: ["./test/setup/no-warnings.ts"],
    benchmark: { include: ["test/**/*.bench.ts"] },
    // Six test files at once on two cores: most files spend much of their time waiting (on
    // child processes, servers, the rate limiter's window), which fewer workers left idle.
    maxWorkers: 6,
    // A worker runs its files one after another in one module graph: importing src/ and the
    // generated tables afresh for each of 150 files was two fifths of the suite's CPU. Files
    // restore what they change (env stubs, listeners, servers) in their after-hooks.
    isolate: false,
    testTimeout: 60_000,
    // The first file to need the build (test/cli/cli.ts) compiles it in its beforeAll, up to a
    // minute of tsc on a loaded machine.
    hookTimeout: 120_000,
  },
});
