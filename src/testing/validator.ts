import type { ValidateFunction } from "ajv";
import { loadDocument, type SchemaObject } from "./document.js";
import { toJsonSchema, toJsonSchemaDefs, type Direction } from "./json-schema.js";
import { addFormats, Ajv } from "./peer-dependencies.js";

/** Every format the schema uses (date-time, email, int32, int64, float, double, binary). */
const FORMATS = ["date-time", "email", "int32", "int64", "float", "double", "binary"] as const;

export interface SchemaValidator {
  /** Undefined when `value` is valid, else Ajv's description of the first failures. */
  check(schema: SchemaObject, value: unknown, name: string): string | undefined;
}

const validators = new Map<Direction, SchemaValidator>();

/**
 * One Ajv per direction, holding every component schema converted once; each operation's
 * schema is compiled on first use and kept, since compiling is the costly step.
 */
export function schemaValidator(direction: Direction): SchemaValidator {
  let validator = validators.get(direction);
  if (!validator) {
    validator = createValidator(direction);
    validators.set(direction, validator);
  }
  return validator;
}

function createValidator(direction: Direction): SchemaValidator {
  const base = `seqera-${direction}`;
  const ajv = new Ajv({
    strict: true,
    strictTypes: false,
    allowUnionTypes: true,
    // Checking the ~500 converted schemas against the meta-schema doubles the set-up time;
    // strict compilation still rejects what Ajv cannot read.
    validateSchema: false,
  });
  addFormats(ajv, [...FORMATS]);
  ajv.addSchema({
    $id: base,
    $defs: toJsonSchemaDefs(loadDocument().components.schemas, direction, base),
  });
  const compiled = new WeakMap<SchemaObject, ValidateFunction>();
  return {
    check(schema, value, name) {
      let validate = compiled.get(schema);
      if (!validate) {
        validate = ajv.compile(toJsonSchema(schema, direction, base));
        compiled.set(schema, validate);
      }
      if (validate(value)) return undefined;
      return ajv.errorsText(validate.errors, { dataVar: name });
    },
  };
}
