import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { lineVersion } from "./versions.js";

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

/** The published URL of the newest release: the last of the pin's sources. */
export function latestLocation(pin: Pin): string {
  const last = pin.sources.at(-1);
  if (!last) throw new Error("schema/pin.json lists no sources");
  return last;
}

/**
 * Where to read the schema from: `--source <file|url>`, else SEQERA_SCHEMA_SOURCE (for an
 * Enterprise install's URL or a local file), else the pin's list.
 */
export function chooseLocations(
  pin: Pin,
  source: string | undefined,
  env: NodeJS.ProcessEnv,
): string[] {
  const chosen = source ?? env.SEQERA_SCHEMA_SOURCE?.trim();
  return chosen ? [chosen] : pinnedLocations(pin);
}

/**
 * The package's version names the schema release it is built from: major.minor of the
 * release, the patch the project's release counter, kept (lineVersion).
 */
export async function movePackageVersion(root: string, schemaVersion: string): Promise<void> {
  const file = path.join(root, "package.json");
  const text = await readFile(file, "utf8").catch(() => undefined);
  if (text === undefined) return;
  const pkg = JSON.parse(text) as { version?: string };
  pkg.version = lineVersion(schemaVersion, pkg.version ?? "0.0.0");
  await writeFile(file, JSON.stringify(pkg, null, 2) + "\n");
}
