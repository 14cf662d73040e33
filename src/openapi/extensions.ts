/**
 * Our `x-` extensions in the overlaid document (generated/openapi.json). JSON Schema validation
 * ignores them; they tell the emulator and other readers where a value came from.
 */

/**
 * Set to `true` on a property schema that the `nullable-unless-required` rule of the schema
 * pipeline made nullable (see schema/rules.yaml): the published schema did not say so, but the
 * service may send `null` there. Properties the schema or an overlay made nullable do not carry
 * it.
 */
export const NULLABLE_BY_RULE = "x-seqera-nullable-by-rule";
