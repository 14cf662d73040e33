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
