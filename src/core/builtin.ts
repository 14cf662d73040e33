import { createRequire } from "node:module";

/**
 * Loads a Node built-in at first use, not with the package: an ES import of `node:fs` reads
 * every export, which loads all of Node's streams, and `node:crypto` or `node:zlib` cost
 * milliseconds each; a plain call needs none of them. Use as
 * `requireBuiltin("node:zlib") as typeof import("node:zlib")`.
 */
export const requireBuiltin = createRequire(import.meta.url);

/** sha256 of `text`; node:crypto loads at the first digest (~4 ms), not with the package. */
export function sha256(text: string, encoding: "hex" | "base64" = "hex"): string {
  const { createHash } = requireBuiltin("node:crypto") as typeof import("node:crypto");
  return createHash("sha256").update(text).digest(encoding);
}
