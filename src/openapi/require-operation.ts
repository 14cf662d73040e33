/**
 * What this release of the API has: code that runs against every release (helpers, CLI
 * commands, emulator routes) asks here before using an operation a release may lack.
 */
import type { HttpMethod } from "openapi-typescript-helpers";
import { operations, type OperationInfo } from "../../generated/operations.js";
import type { paths } from "../../generated/schema.js";
import { SCHEMA_VERSION } from "../../generated/version.js";
import { UnsupportedOperationError } from "../errors/unsupported-operation-error.js";

/** "GET /workflow/{workflowId}": every operation of the release the types were generated from. */
export type OperationKey = {
  [P in keyof paths]: {
    [M in HttpMethod & keyof paths[P]]: [NonNullable<paths[P][M]>] extends [never]
      ? never
      : `${Uppercase<M>} ${P & string}`;
  }[HttpMethod & keyof paths[P]];
}[keyof paths];

/**
 * `T` where the release has operation `K`, else a type naming what is missing, so that code
 * using it fails the type-check of that release with the reason in the message.
 */
export type IfOperation<K extends string, T> = K extends OperationKey
  ? T
  : { unsupported: `${K} is not in this API release` };

/** Whether the release has the operation, e.g. `hasOperation("GET /labels")`. */
export function hasOperation(key: string): key is OperationKey {
  return Object.hasOwn(operations, key);
}

/**
 * The operation's table entry; an UnsupportedOperationError naming the release when it lacks
 * it ("GET /labels is not in API 1.85.0, …"), before any request.
 */
export function requireOperation(key: string): OperationInfo {
  const info = hasOperation(key) ? operations[key] : undefined;
  if (!info) throw new UnsupportedOperationError(key, SCHEMA_VERSION);
  return info;
}
