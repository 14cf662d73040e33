import type { ValidateFunction } from "ajv";
import { loadDocument, type SchemaObject } from "../openapi/operations-document.js";
import { addComponentSchemas } from "../openapi/ajv.js";
import { toJsonSchema, type Direction } from "../openapi/json-schema.js";
import { newAjv } from "./peer-dependencies.js";

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
  const ajv = newAjv();
  addComponentSchemas(ajv, loadDocument(), direction, base);
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
