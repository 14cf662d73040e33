import { statSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { lineVersion } from "./versions.js";
import YAML from "yaml";
import { SchemaInputError } from "./parse.js";
import type { SoughtRelease } from "./source.js";

/** What the project commits about the service's schema: which release, its hash, where to get it. */
export interface Pin {
  version: string;
  sha256: string;
  /** The offline mirror's file, tried first; `{version}` is replaced by the pinned version. */
  mirror: string;
  /**
   * Where the pinned release is published for good (a fixed commit of a public repository),
   * tried second; absent for a release schema/published.yaml does not list.
   */
  permanent?: string;
  /** The published URL of the newest release: tried last, used only while it serves the pin. */
  latest: string;
}

export const pinFile = (root: string): string => path.join(root, "schema", "pin.json");

export async function readPin(root: string): Promise<Pin> {
  return JSON.parse(await readFile(pinFile(root), "utf8")) as Pin;
}

export async function writePin(root: string, pin: Pin): Promise<void> {
  await writeFile(pinFile(root), JSON.stringify(pin, null, 2) + "\n");
}

/** The pin's places, in the order they are tried: the mirror, the permanent URL, the latest URL. */
export const pinnedLocations = (pin: Pin): string[] =>
  [pin.mirror.replaceAll("{version}", pin.version), pin.permanent, pin.latest].filter(
    (location): location is string => Boolean(location),
  );

/** The pinned release to obtain, and what to do when none of the pin's places has it. */
export function pinnedRelease(pin: Pin): SoughtRelease {
  return {
    version: pin.version,
    sha256: pin.sha256,
    help: downloadHelp(pin.version, pin.permanent),
  };
}

/** How to build without the network: a URL to fetch elsewhere, and SEQERA_SCHEMA_SOURCE. */
export function downloadHelp(version: string, url: string | undefined): string {
  return url
    ? `Download ${url} and set SEQERA_SCHEMA_SOURCE to the downloaded file (or to a URL that serves it)`
    : `Set SEQERA_SCHEMA_SOURCE to a file or URL that serves release ${version}`;
}

/** A release's file name in the offline mirror (the pin's `mirror` pattern). */
export const mirrorFileName = (pin: Pin, version: string): string =>
  path.basename(pin.mirror).replaceAll("{version}", version);

/**
 * A source chosen by hand: `--source <file|url|dir>`, else SEQERA_SCHEMA_SOURCE. A directory
 * (laid out as the offline mirror, so one setting serves every release) gives `inDir.file` in it.
 */
export function explicitSource(
  source: string | undefined,
  env: NodeJS.ProcessEnv,
  inDir?: { baseDir: string; file: string },
): string | undefined {
  const chosen = source ?? (env.SEQERA_SCHEMA_SOURCE?.trim() || undefined);
  if (!chosen || !inDir || !isDirectory(path.resolve(inDir.baseDir, chosen))) return chosen;
  return path.join(chosen, inDir.file);
}

const isDirectory = (file: string): boolean =>
  statSync(file, { throwIfNoEntry: false })?.isDirectory() ?? false;

/** A release's permanent place, as schema/published.yaml lists it. */
export interface PublishedRelease {
  sha256: string;
  url: string;
}

export const publishedFile = (root: string): string => path.join(root, "schema", "published.yaml");

/** schema/published.yaml: release → its permanent URL and sha256; empty when the file is absent. */
export async function readPublished(root: string): Promise<Record<string, PublishedRelease>> {
  const text = await readFile(publishedFile(root), "utf8").catch(() => undefined);
  if (text === undefined) return {};
  const table = YAML.parse(text) as Record<string, PublishedRelease> | null;
  for (const [version, row] of Object.entries(table ?? {})) {
    if (!/^[0-9a-f]{64}$/.test(row?.sha256 ?? "") || !/^https?:\/\//.test(row?.url ?? "")) {
      throw new SchemaInputError(
        `schema/published.yaml: release ${version} needs a sha256 (64 hex digits) and an http(s) url`,
      );
    }
  }
  return table ?? {};
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
