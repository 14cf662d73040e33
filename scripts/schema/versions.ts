import { compareVersions } from "../../src/core/versions.js";

export { compareVersions };

/**
 * Whether `version` satisfies a range of space-separated comparators, all of which must hold:
 * "<1.140.0", ">=1.85.0 <1.140.0". "*" (or an empty range) matches every release.
 */
export function satisfies(version: string, range: string): boolean {
  if (range.trim() === "*") return true;
  return range
    .split(/\s+/)
    .filter(Boolean)
    .every((comparator) => {
      const match = /^(<=|>=|<|>|=)?(\d+(?:\.\d+)*)$/.exec(comparator);
      if (!match) throw new Error(`invalid release range comparator '${comparator}'`);
      const cmp = compareVersions(version, match[2]!);
      switch (match[1]) {
        case "<":
          return cmp < 0;
        case "<=":
          return cmp <= 0;
        case ">":
          return cmp > 0;
        case ">=":
          return cmp >= 0;
        default:
          return cmp === 0;
      }
    });
}

/**
 * The version of a package line: the release's major.minor, and as patch the project's release
 * counter, the patch of package.json's version. The counter goes up by one for every client
 * release and is never reset (not even when the pin moves), so every line packed from one
 * commit has the same patch, two lines never share a version (their major.minor differ), and a
 * fix reaches every line as a patch no earlier release of that line used.
 */
export function lineVersion(release: string, packageVersion: string): string {
  const [major, minor] = release.split(".");
  return `${major}.${minor}.${releaseCounter(packageVersion)}`;
}

/** The release counter: the patch of package.json's version ("1.181.3" → 3). */
export function releaseCounter(packageVersion: string): number {
  const patch = /^\d+\.\d+\.(\d+)$/.exec(packageVersion)?.[1];
  if (patch === undefined) {
    throw new Error(`package.json's version '${packageVersion}' is not major.minor.patch`);
  }
  return Number(patch);
}
