/**
 * What a family's description and the operation table say together: how its resources are
 * listed (path, paging, search, shared visibility) and how an item's id and name are read.
 */
import { requireOperation } from "../openapi/require-operation.js";
import type { Family } from "./family.js";

/** How a family is listed, as the operation table describes its list operation. */
export interface ListShape {
  path: string;
  /** The answer's array of items. */
  items: string;
  /** Pages with max/offset or a token (the pagination engine reads it). */
  paged: boolean;
  /** The service filters by name itself (`search=<name>`): one call per name. */
  searched: boolean;
  /** `visibility=all` goes with every list call, so shared resources are found too. */
  shared: boolean;
}

const shapes = new WeakMap<Family, ListShape>();

export function listShape(family: Family): ListShape {
  let shape = shapes.get(family);
  if (shape) return shape;
  const info = requireOperation(family.operations.list);
  const items = info.pagination?.items ?? family.items;
  // A family whose list the table does not page names its items: a broken model, not input.
  if (items === undefined) throw new TypeError(`${family.operations.list}: no items field`);
  shape = {
    path: info.path,
    items,
    paged: info.pagination !== undefined,
    searched: "search" in info.query,
    shared: family.shared === true && "visibility" in info.query,
  };
  shapes.set(family, shape);
  return shape;
}

/** An item's id as text (the service's ids are int64), "" when it has none. */
export function idOf(family: Family, item: object): string {
  const id = (item as Record<string, unknown>)[family.id];
  return id == null ? "" : String(id);
}

/** An item's name, "" when it has none. */
export function nameOf(family: Family, item: object): string {
  const name = (item as Record<string, unknown>)[family.name];
  return typeof name === "string" ? name : "";
}
