import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { explicitSource, mirrorFileName, readPin, readPublished } from "./pin.js";
import {
  obtainRelease,
  obtainVerified,
  sha256,
  timeoutFromEnv,
  type ObtainOptions,
} from "./source.js";

/**
 * The files the tests read that are not ours to commit: every schema release of
 * schema/published.yaml, and the service answers recorded by the tw CLI
 * (test/fixtures/real-responses.lock.json). Each is obtained as generate obtains the pinned
 * schema (a local copy first, else its permanent URL), checked by sha256 and cached in
 * `.cache/inputs/`, which the tests read.
 */

/** What test/fixtures/real-responses.lock.json keeps of each recorded answer. */
export interface RecordedAnswer {
  /** Its place in the layout of ../shared/real-responses (and of the cache). */
  file: string;
  method: string;
  path: string;
  status: number;
  /** The file in the upstream repository, at the lock's commit. */
  source: { file: string };
  sha256: string;
}

export interface RecordedLock {
  repo: string;
  commit: string;
  /** The permanent URL of a file: `{repo}`, `{commit}` and `{file}` are replaced. */
  url: string;
  fixtures: RecordedAnswer[];
}

export const lockFile = (root: string): string =>
  path.join(root, "test", "fixtures", "real-responses.lock.json");
export const inputsDir = (root: string): string => path.join(root, ".cache", "inputs");
/** Laid out as ../shared/real-responses: manifest.json (the lock) and the bodies. */
export const recordedDir = (root: string): string => path.join(inputsDir(root), "real-responses");
/** Laid out as ../shared/schemas: seqera-api-<version>.yml. */
export const schemasDir = (root: string): string => path.join(inputsDir(root), "schemas");

export const readLock = async (root: string): Promise<RecordedLock> =>
  JSON.parse(await readFile(lockFile(root), "utf8")) as RecordedLock;

export const permanentUrl = (lock: RecordedLock, file: string): string =>
  lock.url.replace("{repo}", lock.repo).replace("{commit}", lock.commit).replace("{file}", file);

/** Obtains every input missing from the cache (or changed there); returns how many it wrote. */
export async function obtainTestInputs(
  root: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const from: ObtainOptions = { baseDir: root, timeoutMs: timeoutFromEnv(env) };
  let written = 0;
  const keep = async (file: string, sha: string, obtain: () => Promise<string>): Promise<void> => {
    const cached = await readFile(file, "utf8").catch(() => undefined);
    if (cached !== undefined && sha256(cached) === sha) return;
    const text = await obtain();
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
    written++;
  };

  const pin = await readPin(root);
  for (const [version, row] of Object.entries(await readPublished(root))) {
    const name = mirrorFileName(pin, version);
    const explicit = explicitSource(undefined, env, { baseDir: root, file: name });
    const locations = [explicit, pin.mirror.replaceAll("{version}", version), row.url];
    await keep(path.join(schemasDir(root), name), row.sha256, async () => {
      const help =
        `Set SEQERA_SCHEMA_SOURCE to a directory laid out as ../shared/schemas ` +
        `(${name}: download ${row.url})`;
      const release = { version, sha256: row.sha256, help };
      return (await obtainRelease(release, locations.filter(isSet), from)).text;
    });
  }

  const lock = await readLock(root);
  const local = [env.SEQERA_FIXTURES_SOURCE?.trim(), "../shared/real-responses"].filter(isSet);
  // One at a time: a machine without the network fails on the first, in one line.
  for (const answer of lock.fixtures) {
    const url = permanentUrl(lock, answer.source.file);
    await keep(path.join(recordedDir(root), answer.file), answer.sha256, async () => {
      const sought = {
        what: `the recorded answer ${answer.file}`,
        sha256: answer.sha256,
        help:
          `Set SEQERA_FIXTURES_SOURCE to a directory laid out as ../shared/real-responses, ` +
          `or let this machine reach ${url}`,
      };
      const locations = [...local.map((dir) => path.join(dir, answer.file)), url];
      return (await obtainVerified(sought, locations, from)).text;
    });
  }
  await writeFile(path.join(recordedDir(root), "manifest.json"), JSON.stringify(lock, null, 2));
  return written;
}

const isSet = (value: string | undefined): value is string => Boolean(value);
