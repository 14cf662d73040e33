/**
 * Ids handed on: the service always sends the ids of what it creates and lists, but the schema
 * marks them nullable, so a result typed as the schema says would need `!` before it goes into
 * the next call. The client (checkAnsweredIds: a family's create answer and list items) and the
 * helpers check them as they arrive instead (a missing one is the service's broken answer, an
 * UnexpectedAnswerError) and type them as present.
 */
import { UnexpectedAnswerError } from "../errors/unexpected-answer-error.js";
import { listShape } from "./derive.js";
import { FAMILIES, type FamilyName } from "./families.js";
import type { Family } from "./family.js";

/** `T` whose fields `K` are present and not null. */
export type Identified<T, K extends keyof T> = T & { [P in K]-?: NonNullable<T[P]> };

/** `T` with the field at `path` ("pipeline.pipelineId") present, and the objects on the way. */
export type Present<T, Path extends string> = Path extends `${infer H}.${infer R}`
  ? H extends keyof T
    ? T & { [P in H]-?: Present<NonNullable<T[P]>, R> }
    : T
  : Identified<T, Path & keyof T>;

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

type Families = typeof FAMILIES;
type Operations<F extends FamilyName> = Families[F]["operations"];
type CreateOf<F extends FamilyName> = Operations<F> extends { create: infer K } ? K : never;
type ListedAt<F extends FamilyName> = Families[F] extends { item: infer I extends string }
  ? `${I}.${Families[F]["id"]}`
  : Families[F]["id"];

/** Per create operation ("POST /compute-envs"), where its answer holds the new resource's id. */
export type CreatedIds = {
  [F in FamilyName as CreateOf<F> & string]: Families[F] extends { created: infer C } ? C : never;
};
/** Per family list operation ("GET /compute-envs"), where each listed item holds its id. */
export type ListedIds = { [F in FamilyName as Operations<F>["list"]]: ListedAt<F> };

/** Where an answer holds ids: at `path` in it, or in each item of its list `items`. */
interface IdPlace {
  items?: string;
  path: string;
  /** `path` split once: the check runs on every answer of these operations. */
  keys: readonly string[];
}

let places: Map<string, IdPlace> | undefined;

/** The places of the ids an operation's answer carries (CreatedIds, ListedIds), if any. */
function idPlace(operation: string): IdPlace | undefined {
  places ??= new Map(
    Object.values(FAMILIES as Record<string, Family>).flatMap((family) => {
      const { create, list } = family.operations;
      const listed = family.item ? `${family.item}.${family.id}` : family.id;
      const entries: [string, IdPlace][] = [
        [list, { items: listShape(family).items, path: listed, keys: listed.split(".") }],
      ];
      if (create && family.created) {
        entries.push([create, { path: family.created, keys: family.created.split(".") }]);
      }
      return entries;
    }),
  );
  return places.get(operation);
}

/**
 * Checks the ids an answer of `operation` carries (CreatedIds, ListedIds): UnexpectedAnswerError
 * naming the operation and the field ("pipeline.pipelineId", "workflows[].workflow.id") when one
 * is absent or null. A list that is not an array is left to the pagination, which says so.
 */
export function checkAnsweredIds(operation: string, answer: unknown): void {
  const place = idPlace(operation);
  if (place === undefined) return;
  const { items, path, keys } = place;
  const list = items === undefined ? [answer] : (answer as Record<string, unknown> | null)?.[items];
  if (!Array.isArray(list)) return;
  for (const item of list) {
    const id = keys.reduce<unknown>(
      (value, key) => (value as Record<string, unknown>)?.[key],
      item,
    );
    if (id != null) continue;
    if (items === undefined) {
      throw new UnexpectedAnswerError(operation, path, "the id of what it created", answer);
    }
    const expected = `every listed item with its ${path}`;
    throw new UnexpectedAnswerError(operation, `${items}[].${path}`, expected, item);
  }
}
