import type { Ajv, Options } from "ajv";
import { requireOptional } from "../core/optional-dependency.js";
import type { OpenApiDocument } from "./document.js";
import { toJsonSchemaDefs, type Direction } from "./json-schema.js";
import { linearRegExp } from "./patterns.js";

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

const INSTALL_AJV = "ajv@^8 ajv-formats@^3 re2js@^2";

type FormatsPlugin = (typeof import("ajv-formats"))["default"]["default"];

/**
 * Loads Ajv, ajv-formats and re2js, optional peer dependencies (`feature` names what needs them
 * in the error when one is missing), and returns a factory of Ajv instances with our options,
 * the schema's formats, and patterns checked in linear time (see patterns.ts).
 */
export function loadAjv(feature: string): (options?: Options) => Ajv {
  // Required, not imported: all three ship CommonJS, and the emulator loads them as its entry is
  // evaluated, which must stay synchronous for `require("seqera-api-client/testing")`.
  const ajvModule = requireOptional<typeof import("ajv")>("ajv", feature, INSTALL_AJV);
  // ajv-formats's plugin is its module object's default export.
  const formatsModule = requireOptional<{ default: FormatsPlugin }>(
    "ajv-formats",
    feature,
    INSTALL_AJV,
  );
  const re2Module = requireOptional<typeof import("re2js")>("re2js", feature, INSTALL_AJV);
  const regExp = linearRegExp(re2Module.RE2JS);
  return (options) => {
    const ajv = new ajvModule.Ajv({ ...AJV_OPTIONS, code: { regExp }, ...options });
    formatsModule.default(ajv, FORMATS as never);
    return ajv;
  };
}
