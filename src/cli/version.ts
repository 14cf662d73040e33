import { readFileSync } from "node:fs";
import { SCHEMA_VERSION } from "../../generated/version.js";

/** "seqera-api 1.181.0 (Seqera Platform API schema 1.181.0)": the package and the schema it was built from. */
export function versionLine(): string {
  return `seqera-api ${packageVersion()} (Seqera Platform API schema ${SCHEMA_VERSION})\n`;
}

/**
 * The package's own package.json, found upwards from this file: the built file sits at a
 * different depth than the source, and the build's output folder may move.
 */
function packageVersion(): string {
  for (let dir = new URL(".", import.meta.url); ; dir = new URL("..", dir)) {
    try {
      const pkg = JSON.parse(readFileSync(new URL("package.json", dir), "utf8"));
      if (pkg.name === "seqera-api-client") return String(pkg.version);
    } catch {
      // No package.json here (or not ours): keep going up.
    }
    if (dir.pathname === "/") return "unknown";
  }
}
