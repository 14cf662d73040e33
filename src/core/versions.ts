/**
 * Dotted numeric comparison ("1.85.0" < "1.181.0"): a missing part counts as 0, a leading "v"
 * and any suffix after a number ("1.2.3-rc1") are ignored. Shared by checkCompatibility and the
 * schema scripts' release ranges; imports nothing, so the scripts can use it before generation.
 */
export function compareVersions(a: string, b: string): number {
  const left = numbers(a);
  const right = numbers(b);
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const diff = (left[i] ?? 0) - (right[i] ?? 0);
    if (diff !== 0) return Math.sign(diff);
  }
  return 0;
}

function numbers(version: string): number[] {
  return version
    .trim()
    .replace(/^v/i, "")
    .split(".")
    .map((part) => Number.parseInt(part, 10) || 0);
}

/**
 * The package line built from an API release: "1.140.x" for 1.140.0 (or 1.140.3). The package's
 * version is the release's major.minor, the patch ours; each line is published under its own
 * dist-tag (docs/releases.md).
 */
export function packageLine(apiVersion: string): string {
  const [major = 0, minor = 0] = numbers(apiVersion);
  return `${major}.${minor}.x`;
}
