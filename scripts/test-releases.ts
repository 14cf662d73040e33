import path from "node:path";
import { fileURLToPath } from "node:url";
import { runCli } from "./schema/cli.js";
import { runReleases } from "./schema/releases.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** npm run test:releases [-- --release 1.85.0,1.140.0] [-- --jobs N] [-- --no-tests] [-- --keep] */
runCli("test:releases", async () => {
  const results = await runReleases({ root, argv: process.argv.slice(2) });
  if (results.some((r) => !r.passed)) throw new Error("a release does not build; see above");
});
