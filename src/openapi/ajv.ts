import type { Ajv, Options } from "ajv";
import type { OpenApiDocument } from "./document.js";
import { toJsonSchemaDefs, type Direction } from "./json-schema.js";

/** Every format the schema uses (date-time, email, int32, int64, float, double, binary). */
export const FORMATS = ["date-time", "email", "int32", "int64", "float", "double", "binary"];

export const AJV_OPTIONS: Options = {
  strict: true,
  strictTypes: false,
  allowUnionTypes: true,
  // Checking the ~500 converted schemas against the meta-schema doubles the set-up time;
  // strict compilation still rejects what Ajv cannot read.
  validateSchema: false,
};

/**
 * Adds every component schema of `doc`, converted for `direction`, under `$id: base`, so that
 * operation schemas compiled later resolve `base#/$defs/Name`. Ajv compiles each lazily.
 */
export function addComponentSchemas(
  ajv: Ajv,
  doc: OpenApiDocument,
  direction: Direction,
  base: string,
): void {
  ajv.addSchema({ $id: base, $defs: toJsonSchemaDefs(doc.components.schemas, direction, base) });
}
