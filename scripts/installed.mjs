// Before `npm test`: without `npm ci` there is no generated/ to type-check, and tsc would print
// one error per import of it; one line says what to do instead.
import { existsSync } from "node:fs";

const root = new URL("..", import.meta.url);
const missing = ["node_modules/.bin/tsx", "generated/schema.ts"].filter(
  (file) => !existsSync(new URL(file, root)),
);
if (missing.length > 0) {
  console.error(
    `npm test: ${missing.join(" and ")} missing: run 'npm ci' first (it installs, generates the types and builds)`,
  );
  process.exit(1);
}
