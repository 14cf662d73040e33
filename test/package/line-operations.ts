import { readFile } from "node:fs/promises";
import path from "node:path";
import { buildOperationTable } from "../../scripts/schema/operations.js";
import { parseSchema } from "../../scripts/schema/parse.js";
import { mirroredReleases } from "../../scripts/schema/releases.js";

/** What tells a line's types apart from the other mirrored releases'. */
export interface LineOperations {
  /** An operation the release has and the nearest release that differs lacks. */
  own: string;
  /** An operation the nearest release that differs has and this one lacks. */
  lacking: string;
}

/**
 * Found from the schemas of the mirror (`mirror`), nearest release first (older first for
 * `own`, newer first for `lacking`): for 1.187.0 its own `GET /platform/versions`, and as
 * lacking an operation 1.140.0 removed. Throws if no other release differs.
 */
export async function lineOperations(mirror: string, release: string): Promise<LineOperations> {
  const releases = await mirroredReleases(mirror);
  const at = releases.indexOf(release);
  if (at < 0) throw new Error(`${release} is not in ${mirror} (${releases.join(", ")})`);
  const byDistance = (olderFirst: boolean) =>
    releases
      .filter((r) => r !== release)
      .sort((a, b) => {
        const [da, db] = [releases.indexOf(a) - at, releases.indexOf(b) - at];
        return Math.abs(da) - Math.abs(db) || (olderFirst ? da - db : db - da);
      });
  const mine = await operationKeys(mirror, release);
  const first = async (olderFirst: boolean, pick: (theirs: Set<string>) => string[]) => {
    for (const other of byDistance(olderFirst)) {
      const found = pick(await operationKeys(mirror, other)).sort()[0];
      if (found) return found;
    }
    throw new Error(`no mirrored release differs from ${release} by an operation`);
  };
  return {
    own: await first(true, (theirs) => [...mine].filter((k) => !theirs.has(k))),
    lacking: await first(false, (theirs) => [...theirs].filter((k) => !mine.has(k))),
  };
}

const keys = new Map<string, Promise<Set<string>>>();

function operationKeys(mirror: string, release: string): Promise<Set<string>> {
  const file = path.join(mirror, `seqera-api-${release}.yml`);
  if (!keys.has(file)) {
    keys.set(
      file,
      readFile(file, "utf8").then(
        (text) => new Set(Object.keys(buildOperationTable(parseSchema(text, file)))),
      ),
    );
  }
  return keys.get(file)!;
}
