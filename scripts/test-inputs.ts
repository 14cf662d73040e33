import path from "node:path";
import { fileURLToPath } from "node:url";
import { runCli } from "./schema/cli.js";
import { obtainTestInputs } from "./schema/inputs.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Before `npm test`: the schema releases and recorded answers the tests read, obtained once. */
runCli("test inputs", async () => {
  const written = await obtainTestInputs(root);
  if (written > 0) console.log(`test inputs: ${written} file(s) obtained into .cache/inputs/`);
});
