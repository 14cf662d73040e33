import type { OperationInfo } from "../../generated/operations.js";
import { deref, parameters, type OpenApiDocument } from "../openapi/operations-document.js";

/**
 * A collection of the schema's paths: `/studios`, whose items are `/studios/{sessionId}`, or a
 * sub-collection such as `/studios/{sessionId}/checkpoints`.
 */
export interface Collection {
  /** The collection's path template, e.g. "/studios/{sessionId}/checkpoints". */
  template: string;
  /** The path parameter naming an item, e.g. "checkpointId". */
  itemParam: string;
  /** Whether the service's ids of these items are numbers or strings. */
  idType: "integer" | "string";
}

/** What an operation does to a collection, read from its method and path alone. */
export type ShapeKind = "list" | "create" | "describe" | "update" | "delete" | "action";

export interface OperationShape {
  kind: ShapeKind;
  collection: Collection;
}

const PARAM = /^\{(.+)\}$/;

/**
 * The collections of the schema: every path ending in a parameter (`/x/{id}`) whose parent ends
 * in a literal (`/x`) that lists or creates (`GET` or `POST /x`; `/x/{id}/download/{file}` is
 * not one, nor is `/data-links/{id}/browse/{path}`). Listing, creating, describing, updating and deleting follow from the method on
 * either path; `PUT|POST /x/{id}/verb` is an action on the item.
 */
export function collectionsOf(
  doc: OpenApiDocument,
  table: Record<string, OperationInfo>,
): Map<string, Collection> {
  const collections = new Map<string, Collection>();
  for (const info of Object.values(table)) {
    const segments = info.path.split("/");
    const last = PARAM.exec(segments[segments.length - 1]!)?.[1];
    const parent = segments.slice(0, -1).join("/");
    const listsOrCreates = `GET ${parent}` in table || `POST ${parent}` in table;
    // A trailing path (`/data-links/{id}/browse/{path}`) names content, not an item.
    if (
      !last ||
      /path$/i.test(last) ||
      !listsOrCreates ||
      PARAM.test(segments.at(-2) ?? "{}") ||
      collections.has(parent)
    )
      continue;
    const schema = deref(doc, parameters(doc, info).find((p) => p.name === last)?.schema);
    collections.set(parent, {
      template: parent,
      itemParam: last,
      idType: schema?.type === "integer" ? "integer" : "string",
    });
  }
  return collections;
}

/** The shape of one operation, or undefined when its path is not a collection's or item's. */
export function shapeOf(
  info: OperationInfo,
  collections: Map<string, Collection>,
): OperationShape | undefined {
  const own = collections.get(info.path);
  if (own) {
    if (info.method === "GET") return { kind: "list", collection: own };
    if (info.method === "POST") return { kind: "create", collection: own };
    return undefined;
  }
  const segments = info.path.split("/");
  const parent = segments.slice(0, -1).join("/");
  const item = collections.get(parent);
  if (item && PARAM.test(segments[segments.length - 1]!)) {
    const kind = ITEM_METHODS[info.method];
    return kind ? { kind, collection: item } : undefined;
  }
  const owner = collections.get(segments.slice(0, -2).join("/"));
  const isVerb = !PARAM.test(segments[segments.length - 1]!) && PARAM.test(segments.at(-2) ?? "");
  if (owner && isVerb && (info.method === "PUT" || info.method === "POST")) {
    return { kind: "action", collection: owner };
  }
  return undefined;
}

const ITEM_METHODS: Record<string, ShapeKind> = {
  GET: "describe",
  PUT: "update",
  PATCH: "update",
  DELETE: "delete",
};

/**
 * The collection template a concrete collection path belongs to ("/studios/abc/checkpoints" is
 * "/studios/{sessionId}/checkpoints"), with the parents' values; undefined when none.
 */
export function collectionAt(
  path: string,
  collections: Map<string, Collection>,
): { collection: Collection; parents: Record<string, string> } | undefined {
  const got = path.replace(/\/+$/, "").split("/");
  for (const collection of collections.values()) {
    const want = collection.template.split("/");
    if (want.length !== got.length) continue;
    const parents: Record<string, string> = {};
    const fits = want.every((segment, i) => {
      const name = PARAM.exec(segment)?.[1];
      if (name === undefined) return segment === got[i];
      parents[name] = got[i]!;
      return got[i] !== "";
    });
    if (fits) return { collection, parents };
  }
  return undefined;
}
