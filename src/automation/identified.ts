/**
 * Ids a helper hands on: the service always sends the ids of what it lists, but the schema
 * marks them nullable, so a result typed as the schema says would need `!` before it goes into
 * the next helper. Helpers check them as they arrive instead (a missing one is the service's
 * broken answer, an UnexpectedAnswerError) and type them as present.
 */
import { UnexpectedAnswerError } from "../errors/unexpected-answer-error.js";

/** `T` whose fields `K` are present and not null. */
export type Identified<T, K extends keyof T> = T & { [P in K]-?: NonNullable<T[P]> };

/**
 * `item` typed with its fields `keys` present, after checking that they are; UnexpectedAnswerError
 * naming the call and the field (`at`, as "pipelines[].pipelineId") when one is absent or null.
 */
export function identified<T, K extends keyof T>(
  item: T,
  keys: readonly K[],
  operation: string,
  at: string,
): Identified<T, K> {
  for (const key of keys) {
    if (item[key] == null) {
      throw new UnexpectedAnswerError(
        operation,
        `${at}.${String(key)}`,
        `every listed item with its ${String(key)}`,
        item,
      );
    }
  }
  return item as Identified<T, K>;
}
