import path from "node:path";
import { fileURLToPath } from "node:url";
import { runCli } from "./schema/cli.js";
import { runGenerate } from "./schema/run-generate.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** npm run generate [-- --source <file|url>] [-- --out <dir>] [-- --check] */
runCli("generate", async () => {
  console.log(await runGenerate({ root, argv: process.argv.slice(2) }));
});
