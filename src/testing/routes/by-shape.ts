import type { OperationInfo } from "../../../generated/operations.js";
import { successResponse, type OpenApiDocument } from "../../openapi/operations-document.js";
import {
  collectionsOf,
  shapeOf,
  type Collection,
  type OperationShape,
} from "../resource-shapes.js";
import type { Resource } from "../state/resources.js";
import type { EmulatorRequest, EmulatorResponse } from "../types.js";
import {
  bodyOf,
  conflict,
  FORBIDDEN,
  matches,
  page,
  type RouteContext,
  type StateRoute,
} from "./context.js";

/**
 * Routes for every collection no family answers by hand, derived from the schema's path shapes:
 * `GET /x` lists what `POST /x` created, `GET|PUT|DELETE /x/{id}` describe, update and delete
 * one item, `PUT|POST /x/{id}/verb` acts on it, and sub-collections (`/x/{id}/y`) live under
 * their item. Items of a workspace-scoped operation belong to the request's workspace.
 */
export function routesByShape(
  doc: OpenApiDocument,
  table: Record<string, OperationInfo>,
  byHand: Record<string, StateRoute>,
): Record<string, StateRoute> {
  const collections = collectionsOf(doc, table);
  const shapes = Object.values(table).map((info) => ({ info, shape: shapeOf(info, collections) }));
  // A collection one of whose operations is answered by hand keeps its state there only, and
  // so does one of the same items under another path (`/workspaces/{id}/datasets/{datasetId}`).
  const byHandShapes = shapes.filter(
    ({ info, shape }) => info.operationId in byHand && shape && shape.kind !== "action",
  );
  const handItems = new Set(byHandShapes.map(({ shape }) => shape!.collection.itemParam));
  const handMade = new Set(
    [...collections.values()].filter((c) => handItems.has(c.itemParam)).map((c) => c.template),
  );
  // A collection nothing creates is the service's own catalog (platforms, audit logs): sampled.
  for (const c of collections.values()) {
    if (!shapes.some(({ shape }) => shape?.collection === c && shape.kind === "create")) {
      handMade.add(c.template);
    }
  }
  const routes: Record<string, StateRoute> = {};
  for (const { info, shape } of shapes) {
    if (!shape || info.operationId in byHand || handMade.has(shape.collection.template)) continue;
    // A download (an avatar's image) answers content the state does not hold: sampled.
    if (info.parseAs !== "json" && info.parseAs !== "empty") continue;
    const parent = collections.get(shape.collection.template.split("/").slice(0, -2).join("/"));
    const byRule = parent && !handMade.has(parent.template) ? parent : undefined;
    routes[info.operationId] = route(shape, doc, info, byRule);
  }
  return routes;
}

function route(
  { kind, collection }: OperationShape,
  doc: OpenApiDocument,
  info: OperationInfo,
  parent: Collection | undefined,
): StateRoute {
  const { status } = successResponse(doc, info);
  const scoped = info.query.workspaceId !== undefined;
  return (request, ctx) => {
    const workspaceId = scoped ? ctx.workspaceId : undefined;
    const path = fill(collection.template, request.params);
    // An item of a sub-collection needs its parent item, as the service's 403 says.
    if (
      parent &&
      !ctx.state.resources.get(fill(parent.template, request.params), parentId(collection, request))
    ) {
      return FORBIDDEN;
    }
    const store = ctx.state.resources;
    if (kind === "list") {
      const items = store
        .list(path, workspaceId)
        .filter((r) => matches(String(r.fields.name ?? ""), request));
      return listAnswer(ctx, status, page(items, request), items.length, collection);
    }
    if (kind === "create") {
      const fields = fieldsOf(request, ctx);
      const name = fields.name;
      if (
        typeof name === "string" &&
        store.list(path, workspaceId).some((r) => r.fields.name === name)
      ) {
        return conflict(`An item named '${name}' already exists`);
      }
      return answer(ctx, status, store.add(path, { ...fields, workspaceId }), collection);
    }
    const item = store.get(path, request.params[collection.itemParam]);
    if (!item || item.workspaceId !== workspaceId) return FORBIDDEN;
    if (kind === "update") store.update(item, fieldsOf(request, ctx));
    if (kind === "delete") {
      store.delete(item);
      return { status };
    }
    return answer(ctx, status, item, collection);
  };
}

/** The template with the request's path parameters filled in. */
function fill(template: string, params: Record<string, unknown>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name]));
}

function parentId(collection: Collection, request: EmulatorRequest): unknown {
  const name = /\{(\w+)\}$/.exec(collection.template.split("/").slice(0, -1).join("/"))?.[1];
  return name === undefined ? undefined : request.params[name];
}

/** A request body's fields; `{ team: {...} }` is the team when answers wrap it under `team`. */
function fieldsOf(request: EmulatorRequest, ctx: RouteContext): Record<string, unknown> {
  const body = bodyOf(request);
  const key = ctx.shape()?.wrapper?.key;
  const inner = key === undefined ? undefined : body[key];
  if (typeof inner !== "object" || inner === null || Array.isArray(inner)) return body;
  const { [key!]: _, ...rest } = body;
  return { ...rest, ...(inner as Record<string, unknown>) };
}

/** What an item answers from: its fields, its id under `id` and the path parameter's name. */
function valuesOf(resource: Resource, collection: Collection): Record<string, unknown> {
  return {
    ...resource.fields,
    id: resource.id,
    [collection.itemParam]: resource.id,
    workspaceId: resource.workspaceId,
    dateCreated: resource.dateCreated,
    lastUpdated: resource.lastUpdated,
  };
}

function answer(
  ctx: RouteContext,
  status: number,
  resource: Resource,
  collection: Collection,
): EmulatorResponse {
  const shape = ctx.shape();
  if (!shape) return { status };
  const values = valuesOf(resource, collection);
  const own = ctx.dto(shape.schema, values, true);
  // An answer that shares no field with the item wraps it (`{ studio: {...} }`).
  const shares = Object.entries(own).some(([key, v]) => v !== null && values[key] !== undefined);
  const body =
    shape.wrapper && !shares
      ? ctx.dto(shape.schema, { [shape.wrapper.key]: ctx.dto(shape.wrapper.schema, values, true) })
      : own;
  return { status, body };
}

function listAnswer(
  ctx: RouteContext,
  status: number,
  items: Resource[],
  total: number,
  collection: Collection,
): EmulatorResponse {
  const list = ctx.shape()?.list;
  if (!list) return { status, body: ctx.sample() };
  const body = ctx.dto(ctx.shape()!.schema, {
    [list.key]: items.map((r) => ctx.dto(list.schema, valuesOf(r, collection), true)),
    totalSize: total,
  });
  return { status, body };
}
