/**
 * Global setup: the schema releases and recorded answers the tests read, obtained into
 * .cache/inputs/ before any test file runs (`npm test`'s pretest has already done it; this is for
 * `vitest run <file>`). Cached files are only re-hashed.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { obtainTestInputs } from "../../scripts/schema/inputs.js";

export default async function setup(): Promise<void> {
  await obtainTestInputs(path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../.."));
}
