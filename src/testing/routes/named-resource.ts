import type { EmulatorState } from "../state/state.js";
import type { Entity, Store } from "../state/store.js";
import type { EmulatorRequest, EmulatorResponse } from "../types.js";
import {
  badRequest,
  conflict,
  FORBIDDEN,
  findIn,
  matches,
  NO_CONTENT,
  ok,
  type RouteContext,
  type StateRoute,
} from "./context.js";

export interface NamedResourceOptions<T extends Entity & { name: string }> {
  /** The kind's store in the emulator's state. */
  store: (state: EmulatorState) => Store<T>;
  /** The path parameter holding an entity's id, e.g. "datasetId". */
  param: string;
  /** The kind as the service's messages name it, e.g. "compute environment". */
  noun: string;
  /** Whether a new name is allowed ("Invalid <noun> name" when not); default: any name. */
  validName?: (name: string) => boolean;
}

/** What the operations on one workspace-scoped kind share, as the service answers them. */
export interface NamedResource<T> {
  /** The workspace's entities whose name matches the request's `search`. */
  search(request: EmulatorRequest, ctx: RouteContext): T[];
  /** An operation on the entity the path names; 403 when it is not in the request's workspace. */
  route(
    answer: (
      entity: T,
      request: EmulatorRequest,
      ctx: RouteContext,
    ) => EmulatorResponse | Promise<EmulatorResponse>,
  ): StateRoute;
  /** Answers `{ [key]: dto }` for the entity the path names, else 403. */
  describe(key: string, dto: (ctx: RouteContext, entity: T) => unknown): StateRoute;
  /** Deletes the entity the path names: 204, else 403. */
  delete: StateRoute;
  /** A create request's name; else the 400 (missing or invalid) or 409 (taken) to answer. */
  newName(value: unknown, ctx: RouteContext): string | EmulatorResponse;
  /** The 409 to answer when the workspace already has one named `name`. */
  nameTaken(name: string, ctx: RouteContext): EmulatorResponse | undefined;
}

/**
 * The shared operations of one kind; a kind whose check differs (a label is taken by name and
 * value, credentials have their own 409 message) keeps its own create.
 */
export function namedResource<T extends Entity & { name: string }>(
  options: NamedResourceOptions<T>,
): NamedResource<T> {
  const { store, param, noun, validName } = options;
  const route: NamedResource<T>["route"] = (answer) => (request, ctx) => {
    const entity = findIn(store(ctx.state), request.params[param], ctx);
    return entity ? answer(entity, request, ctx) : FORBIDDEN;
  };
  const nameTaken: NamedResource<T>["nameTaken"] = (name, ctx) =>
    store(ctx.state).byName(name, ctx.workspaceId)
      ? conflict(`A ${noun} named '${name}' already exists`)
      : undefined;
  return {
    search: (request, ctx) =>
      store(ctx.state)
        .list(ctx.workspaceId)
        .filter((e) => matches(e.name, request)),
    route,
    describe: (key, dto) => route((entity, _request, ctx) => ok({ [key]: dto(ctx, entity) })),
    delete: route((entity, _request, ctx) => {
      store(ctx.state).delete(entity.id);
      return NO_CONTENT;
    }),
    newName(value, ctx) {
      if (typeof value !== "string" || value === "") return badRequest(`Missing ${noun} name`);
      if (validName && !validName(value)) return badRequest(`Invalid ${noun} name '${value}'`);
      return nameTaken(value, ctx) ?? value;
    },
    nameTaken,
  };
}
