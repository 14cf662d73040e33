import { createRequire } from "node:module";

/**
 * Loads a Node built-in at first use, not with the package: an ES import of `node:fs` reads
 * every export, which loads all of Node's streams, and `node:crypto` or `node:zlib` cost
 * milliseconds each; a plain call needs none of them. Use as
 * `requireBuiltin("node:zlib") as typeof import("node:zlib")`.
 */
export const requireBuiltin = createRequire(import.meta.url);
