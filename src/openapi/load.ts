import { requireBuiltin } from "../core/builtin.js";
import type { OpenApiDocument } from "./document.js";

let cached: OpenApiDocument | undefined;

/**
 * The overlaid schema that `npm run generate` writes (generated/openapi.json); the package ships
 * it minified and brotli-compressed (dist/generated/openapi.json.br, 36 kB for 977 kB, see
 * scripts/build.mjs). Read once per process, since emulators and validators all use the same one.
 */
export function loadDocument(): OpenApiDocument {
  cached ??= JSON.parse(readDocument()) as OpenApiDocument;
  return cached;
}

function readDocument(): string {
  const file = new URL("../../generated/openapi.json", import.meta.url);
  const { readFileSync } = requireBuiltin("node:fs") as typeof import("node:fs");
  const { brotliDecompressSync } = requireBuiltin("node:zlib") as typeof import("node:zlib");
  try {
    return brotliDecompressSync(readFileSync(new URL(`${file.href}.br`))).toString("utf8");
  } catch (error) {
    if ((error as { code?: string }).code !== "ENOENT") throw error;
    return readFileSync(file, "utf8");
  }
}
