import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";

/** What the project commits about the service's schema: which release, its hash, where to get it. */
export interface Pin {
  version: string;
  sha256: string;
  /** Tried in order; `{version}` is replaced by the pinned version. */
  sources: string[];
}

export const pinFile = (root: string): string => path.join(root, "schema", "pin.json");

export async function readPin(root: string): Promise<Pin> {
  return JSON.parse(await readFile(pinFile(root), "utf8")) as Pin;
}

export async function writePin(root: string, pin: Pin): Promise<void> {
  await writeFile(pinFile(root), JSON.stringify(pin, null, 2) + "\n");
}

export const pinnedLocations = (pin: Pin): string[] =>
  pin.sources.map((source) => source.replaceAll("{version}", pin.version));

/**
 * Where to read the schema from: `--source <file|url>` on the command line, else
 * SEQERA_SCHEMA_SOURCE (for an Enterprise install's URL or a local file), else the pin's list.
 */
export function chooseLocations(pin: Pin, argv: readonly string[], env: NodeJS.ProcessEnv): string[] {
  const flag = argv.indexOf("--source");
  if (flag >= 0) {
    const value = argv[flag + 1];
    if (!value || value.startsWith("--")) throw new Error("--source needs a file path or URL");
    return [value];
  }
  const fromEnv = env.SEQERA_SCHEMA_SOURCE?.trim();
  return fromEnv ? [fromEnv] : pinnedLocations(pin);
}
