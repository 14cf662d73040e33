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
    benchmark: { include: ["test/**/*.bench.ts"] },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
