import path from "node:path";
import { fileURLToPath } from "node:url";
import { runCli } from "./schema/cli.js";
import { packLine } from "./schema/line.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** npm run pack:line -- <release> | --git-tag v<version> [-- --out <dir>] [-- --source <file|url>] [-- --json] */
runCli("pack:line", async () => {
  await packLine({ root, argv: process.argv.slice(2) });
});
