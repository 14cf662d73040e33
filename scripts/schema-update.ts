import path from "node:path";
import { fileURLToPath } from "node:url";
import { runCli } from "./schema/cli.js";
import { runSchemaUpdate } from "./schema/run-update.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** npm run schema:update [-- --source <file|url>] [-- --report <file>] */
runCli("schema:update", async () => {
  await runSchemaUpdate({ root, argv: process.argv.slice(2) });
});
