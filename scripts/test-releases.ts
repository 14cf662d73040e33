import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runCli } from "./schema/cli.js";
import { packLine } from "./schema/line.js";
import { RELEASE_TESTS, run, runReleases } from "./schema/releases.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** npm run test:releases [-- --release 1.85.0,1.140.0] [-- --jobs N] [-- --no-tests] [-- --keep] */
runCli("test:releases", async () => {
  const argv = process.argv.slice(2);
  const results = await runReleases({
    root,
    argv,
    // Each line packed as `npm run pack:line -- <release>` packs it, from the copy built here.
    pack: (copy, version, out) =>
      packLine({ root, argv: [version, "--out", out], tree: copy, log: () => undefined }),
  });
  if (results.some((r) => !r.passed)) throw new Error("a release does not build; see above");
  if (argv.includes("--no-tests")) return;
  // The matrix's files that no release's copy runs (a simulated next release), once from here.
  const { files } = JSON.parse(
    await readFile(path.join(root, "scripts", "matrix-tests.json"), "utf8"),
  );
  const once = (files as string[]).filter((file) => !RELEASE_TESTS.some((t) => file.startsWith(t)));
  const vitest = path.join(root, "node_modules", "vitest", "vitest.mjs");
  const ran = await run(
    process.execPath,
    [vitest, "run", "--config", "test/vitest.config.ts", ...once],
    root,
  );
  console.log(ran.stdout + ran.stderr);
  if (ran.code !== 0) throw new Error(`${once.join(", ")} failed; see above`);
});
