import path from "node:path";
import { fileURLToPath } from "node:url";
import { runCli } from "./schema/cli.js";
import { runRelease } from "./schema/release.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** npm run release -- --dry-run */
runCli("release", async () => {
  await runRelease({ root, argv: process.argv.slice(2) });
});
