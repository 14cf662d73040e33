import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseSchema, SchemaInputError } from "./parse.js";

export interface ObtainedSchema {
  text: string;
  origin: string;
  sha256: string;
}

export interface ObtainOptions {
  /** Directory relative file locations are resolved against (the project root). */
  baseDir: string;
  timeoutMs?: number;
}

export const DEFAULT_TIMEOUT_MS = 30_000;

/** The download timeout: SEQERA_SCHEMA_TIMEOUT_MS (milliseconds), else 30 s. */
export function timeoutFromEnv(env: NodeJS.ProcessEnv): number {
  const raw = env.SEQERA_SCHEMA_TIMEOUT_MS?.trim();
  if (!raw) return DEFAULT_TIMEOUT_MS;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms <= 0) {
    throw new SchemaInputError(`SEQERA_SCHEMA_TIMEOUT_MS must be a positive integer, not '${raw}'`);
  }
  return ms;
}

export const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");

const isUrl = (location: string): boolean => /^https?:\/\//i.test(location);

/** Reads one location: a file path or an http(s) URL, downloaded with a timeout. */
export async function readLocation(
  location: string,
  options: ObtainOptions,
): Promise<ObtainedSchema> {
  if (isUrl(location)) {
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    // One deadline for the headers and the body: a server that stalls mid-file is also caught.
    const signal = AbortSignal.timeout(timeoutMs);
    let text: string;
    const download = () =>
      fetch(location, {
        signal,
        headers: { accept: "application/yaml, application/json;q=0.9, */*;q=0.1" },
      });
    try {
      // A connection dropped before any answer (a kept-alive one the server closed as it was
      // reused) is tried once more, on a new connection: a GET, nothing was answered.
      const response = await download().catch((err: unknown) => {
        if (signal.aborted) throw err;
        return download();
      });
      if (!response.ok) {
        await response.body?.cancel();
        throw new SchemaInputError(`${location} answered HTTP ${response.status}`);
      }
      text = await response.text();
    } catch (err) {
      if (err instanceof SchemaInputError) throw err;
      const cause = signal.aborted ? `no complete answer in ${timeoutMs} ms` : describe(err);
      throw new SchemaInputError(`${location} is unreachable: ${cause}`);
    }
    return { text, origin: location, sha256: sha256(text) };
  }
  const file = path.resolve(options.baseDir, location.replace(/^file:\/\//, ""));
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new SchemaInputError(
      code === "ENOENT" ? `${file} does not exist` : `${file} cannot be read: ${describe(err)}`,
    );
  }
  return { text, origin: file, sha256: sha256(text) };
}

/** A file to obtain by its sha256: its name in errors, and what to do when no place has it. */
export interface Sought {
  what: string;
  sha256: string;
  /** The last sentence of the failure: what the user can do. */
  help: string;
}

/** A release to obtain: its version, its sha256, and how to get it by hand when no place has it. */
export interface SoughtRelease extends Omit<Sought, "what"> {
  version: string;
}

/**
 * Tries each location in order and returns the first that holds `sought` (by sha256). A
 * location that holds something else is passed over; if none holds it, one error lists what
 * each gave (`other` names what a wrong file is), then `sought.help`.
 */
export async function obtainVerified(
  sought: Sought,
  locations: readonly string[],
  options: ObtainOptions,
  other: (obtained: ObtainedSchema) => string = (o) => `holds sha256 ${o.sha256.slice(0, 12)}…`,
): Promise<ObtainedSchema> {
  const failures: string[] = [];
  for (const location of locations) {
    try {
      const obtained = await readLocation(location, options);
      if (obtained.sha256 === sought.sha256) return obtained;
      failures.push(`${obtained.origin} ${other(obtained)}`);
    } catch (err) {
      if (!(err instanceof SchemaInputError)) throw err;
      failures.push(err.message);
    }
  }
  throw new SchemaInputError(
    `could not obtain ${sought.what} (sha256 ${sought.sha256.slice(0, 12)}…): ` +
      `${failures.join("; ")}. ${sought.help}`,
  );
}

/**
 * obtainVerified for a schema release: the published "latest" URL moves on, so a location
 * serving another release is passed over, named by its version.
 */
export const obtainRelease = (
  release: SoughtRelease,
  locations: readonly string[],
  options: ObtainOptions,
): Promise<ObtainedSchema> =>
  obtainVerified(
    { ...release, what: `schema release ${release.version}` },
    locations,
    options,
    whichRelease,
  );

function whichRelease(obtained: ObtainedSchema): string {
  const sha = `sha256 ${obtained.sha256.slice(0, 12)}…`;
  try {
    return `serves release ${parseSchema(obtained.text, obtained.origin).info.version} (${sha})`;
  } catch {
    return `serves no schema release (${sha})`;
  }
}

function describe(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err as Error).message;
}
