import { readFileSync } from "node:fs";
import type { OpenApiDocument } from "./document.js";

let cached: OpenApiDocument | undefined;

/**
 * The overlaid schema that `npm run generate` writes (generated/openapi.json, shipped in the
 * package); read once per process, since emulators and validators all use the same one.
 */
export function loadDocument(): OpenApiDocument {
  cached ??= JSON.parse(
    readFileSync(new URL("../../generated/openapi.json", import.meta.url), "utf8"),
  ) as OpenApiDocument;
  return cached;
}
