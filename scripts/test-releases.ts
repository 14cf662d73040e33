import path from "node:path";
import { fileURLToPath } from "node:url";
import { runCli } from "./schema/cli.js";
import { packLine } from "./schema/line.js";
import { runReleases } from "./schema/releases.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** npm run test:releases [-- --release 1.85.0,1.140.0] [-- --jobs N] [-- --no-tests] [-- --keep] */
runCli("test:releases", async () => {
  const results = await runReleases({
    root,
    argv: process.argv.slice(2),
    // Each line packed as `npm run pack:line -- <release>` packs it, from the copy built here.
    pack: (copy, version, out) =>
      packLine({ root, argv: [version, "--out", out], tree: copy, log: () => undefined }),
  });
  if (results.some((r) => !r.passed)) throw new Error("a release does not build; see above");
});
