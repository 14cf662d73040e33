import type { AnswerShape } from "../answers.js";
import type { EmulatorState } from "../state/state.js";
import type { Entity, Store } from "../state/store.js";
import { withErrorId } from "../ids.js";
import type { EmulatorRequest, EmulatorResponse } from "../types.js";

/** What a stateful operation answers from. */
export interface RouteContext {
  state: EmulatorState;
  /** The workspace the request names (`workspaceId`), known to exist; undefined: personal. */
  workspaceId: number | undefined;
  /** The emulator's base URL, for URLs in answers (dataset versions). */
  baseUrl: string;
  /**
   * An answer built from state, as the service's serializer writes it: `values`; every other
   * property of the schema null where it may be, else left out (a required one is sampled).
   * Nothing is invented: no sampled placeholder ("icon") reaches an answer.
   */
  dto(
    schemaName: string,
    values: Record<string, unknown>,
    fitted?: boolean,
  ): Record<string, unknown>;
  /** How this operation's answer holds items (see answerShape); undefined when not JSON. */
  shape(): AnswerShape | undefined;
  /**
   * The name of the schema at `path` in this operation's answer (see answerSchemaName): for
   * objects whose schema has been renamed between releases.
   */
  schemaAt(...path: string[]): string;
  /** The operation's own sampled answer. */
  sample(): Record<string, unknown>;
}

/** A stateful operation, keyed by operationId in a route table. */
export type StateRoute = (
  request: EmulatorRequest,
  ctx: RouteContext,
) => EmulatorResponse | Promise<EmulatorResponse>;

/** The service answers 403, not 404, for what does not exist or is not the caller's. */
export const FORBIDDEN: EmulatorResponse = { status: 403 };
export const NO_CONTENT: EmulatorResponse = { status: 204 };

export function ok(body: unknown): EmulatorResponse {
  return { status: 200, body };
}

export function badRequest(message: string): EmulatorResponse {
  return { status: 400, body: { message: withErrorId(message) } };
}

/** A name already taken in the workspace: the service's 409. */
export function conflict(message: string): EmulatorResponse {
  return { status: 409, body: { message: withErrorId(message) } };
}

/** The entity with the path parameter's id, if it lives in the request's workspace. */
export function findIn<T extends Entity>(
  store: Store<T>,
  id: unknown,
  ctx: RouteContext,
): T | undefined {
  const entity = store.get(id as T["id"]);
  return entity && entity.workspaceId === ctx.workspaceId ? entity : undefined;
}

/** `max`/`offset` of an offset-paged list. */
export function page<T>(items: T[], request: EmulatorRequest): T[] {
  const offset = (request.query.offset as number | undefined) ?? 0;
  const max = (request.query.max as number | undefined) ?? items.length;
  return items.slice(offset, offset + max);
}

/** One page of a list, `{ [key]: [...], totalSize }`, the size counting every page. */
export function paged<T>(
  key: string,
  items: T[],
  request: EmulatorRequest,
  dto: (item: T) => unknown,
): EmulatorResponse {
  return ok({ [key]: page(items, request).map((item) => dto(item)), totalSize: items.length });
}

/** Free-text `search` of a list: a case-insensitive part of the name. */
export function matches(name: string, request: EmulatorRequest): boolean {
  const search = request.query.search;
  return typeof search !== "string" || name.toLowerCase().includes(search.toLowerCase());
}

export function bodyOf(request: EmulatorRequest): Record<string, unknown> {
  const body = request.body;
  return typeof body === "object" && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : {};
}
