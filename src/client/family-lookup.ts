/**
 * A family's lookup by name, derived from its description (model/families.ts) and the operation
 * table: a family the service searches (`search=<name>`) is asked one name at a time, every page
 * of the answer, and after a miss one page of the whole list for near names; any other is listed
 * whole, through the pagination engine when its list pages.
 */
import { collect, type Lookup } from "./lookup.js";
import type { SeqeraClient } from "./types.js";
import { MAX_PAGE_SIZE } from "../openapi/operation-info.js";
import { paginateUntyped } from "./paginate.js";
import { idOf, listShape, nameOf } from "../model/derive.js";
import type { Family } from "../model/family.js";

type Query = Record<string, string | number>;

/** A search's page size, as tw asks: a name rarely matches more than a page. */
const SEARCH_PAGE_SIZE = 50;

export interface FamilyLookupOptions<T> {
  /** The item as the lookup gives it, from the item as listed; undefined leaves it out. */
  from?: (item: any) => T | undefined;
  /** The query of every list call (e.g. `status: "AVAILABLE"`). */
  query?: Query;
  /** The names an item answers to; default its name. */
  names?: (item: T) => string[];
  /** The query searching for a name; default `{ search: name }`. */
  searchQuery?: (name: string) => Query;
  /** Operations beyond the family's create, update and delete that change what it lists. */
  changedBy?: readonly string[];
}

/**
 * The items the family's list operation answers for the query (`visibility=all` for a family of
 * shared resources): every page, or `page`'s size and limit.
 */
export async function listFamily<T>(
  client: SeqeraClient,
  family: Family,
  query: Query,
  page: { pageSize?: number; limit?: number },
  signal: AbortSignal | undefined,
): Promise<T[]> {
  const shape = listShape(family);
  const params = { query: { ...(shape.shared && { visibility: "all" }), ...query } };
  if (!shape.paged) {
    const body = (await client.request("GET", shape.path, { params, signal })) as Record<
      string,
      unknown
    > | null;
    return (body?.[shape.items] as T[] | null | undefined) ?? [];
  }
  // Untyped: the path is the family's, checked against the table by listShape.
  return collect(paginateUntyped<T>(client, shape.path, { params, ...page, signal }));
}

export function familyLookup<T extends object>(
  family: Family,
  options: FamilyLookupOptions<T> = {},
): Lookup<T> {
  const shape = listShape(family);
  const list = (
    client: SeqeraClient,
    query: Query,
    page: { pageSize?: number; limit?: number },
    signal: AbortSignal | undefined,
  ) => listFamily<T>(client, family, { ...options.query, ...query }, page, signal);
  const from = options.from;
  const listed = from
    ? async (...args: Parameters<typeof list>) =>
        (await list(...args)).flatMap((item) => from(item) ?? [])
    : list;
  const searchQuery = options.searchQuery ?? ((name: string) => ({ search: name }));
  return {
    kind: family.noun,
    global: family.scope !== "workspace",
    searched: shape.searched,
    list: (client, signal, name) =>
      shape.searched
        ? listed(client, searchQuery(name), { pageSize: SEARCH_PAGE_SIZE }, signal)
        : listed(client, {}, {}, signal),
    ...(shape.searched && {
      suggest: (client, signal) => listed(client, {}, { limit: MAX_PAGE_SIZE }, signal),
    }),
    names: options.names ?? ((item) => [nameOf(family, item)]),
    id: (item) => idOf(family, item),
    changedBy: [
      family.operations.create,
      family.operations.update,
      family.operations.delete,
      ...(options.changedBy ?? []),
    ].filter((key) => key !== undefined),
  };
}
