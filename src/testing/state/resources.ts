import { randomId } from "../ids.js";
import type { Collection } from "../resource-shapes.js";
import type { ScopedInit, WorkspaceResolver } from "./scoped.js";
import { timestamp, type Entity } from "./store.js";

/**
 * An item of a collection the emulator keeps by rule (no family of its own): the fields it was
 * created or seeded with, answered under the names the response schema shares with them.
 */
export interface Resource extends Entity {
  /** The concrete collection path it lives in, e.g. "/studios/abc/checkpoints". */
  collection: string;
  fields: Record<string, unknown>;
}

/** An item to seed: its fields, and optionally its `id`, workspace and dates. */
export interface ResourceInit extends ScopedInit {
  id?: string | number;
  [field: string]: unknown;
}

/** Finds the collection a concrete path belongs to. */
export type CollectionLookup = (path: string) => Collection | undefined;

/**
 * The items of every collection kept by rule, by concrete collection path, in insertion order.
 * Ids are numbers or strings as the collection's path parameter is.
 */
export class ResourceStore {
  readonly #items = new Map<string, Map<string, Resource>>();
  #nextNumber = 1;

  constructor(
    private readonly collectionAt: CollectionLookup,
    private readonly workspace: WorkspaceResolver,
  ) {}

  /**
   * Adds an item to the collection at `path` ("/actions", "/studios/abc/checkpoints"); an
   * unknown path, or an id already taken there, is a mistake in the test's seed.
   */
  add(path: string, init: ResourceInit): Resource {
    const collection = this.collectionAt(path);
    if (!collection) throw new Error(`${path} is not a collection of the API`);
    const { id, workspaceId, dateCreated, lastUpdated, ...fields } = init;
    const items = this.#collection(path);
    const key = id === undefined ? this.#newId(collection, items) : id;
    if (items.has(String(key))) throw new Error(`Id ${String(key)} is already taken in ${path}`);
    const created = timestamp(dateCreated);
    const resource: Resource = {
      id: key,
      collection: path,
      fields,
      dateCreated: created,
      lastUpdated: timestamp(lastUpdated, created),
    };
    const workspace = this.workspace(workspaceId);
    if (workspace !== undefined) resource.workspaceId = workspace;
    items.set(String(key), resource);
    return resource;
  }

  /** The items at `path` in a workspace (undefined: the personal context). */
  list(path: string, workspaceId: number | undefined): Resource[] {
    return [...this.#collection(path).values()].filter((r) => r.workspaceId === workspaceId);
  }

  get(path: string, id: unknown): Resource | undefined {
    return this.#items.get(path)?.get(String(id));
  }

  /** Merges `fields` into the item's and touches `lastUpdated`. */
  update(resource: Resource, fields: Record<string, unknown>): Resource {
    Object.assign(resource.fields, fields);
    resource.lastUpdated = timestamp(undefined);
    return resource;
  }

  /** Deletes the item and every item of its sub-collections. */
  delete(resource: Resource): void {
    this.#items.get(resource.collection)?.delete(String(resource.id));
    const under = `${resource.collection}/${resource.id}/`;
    for (const path of this.#items.keys()) if (path.startsWith(under)) this.#items.delete(path);
  }

  #collection(path: string): Map<string, Resource> {
    let items = this.#items.get(path);
    if (!items) this.#items.set(path, (items = new Map()));
    return items;
  }

  #newId(collection: Collection, items: Map<string, Resource>): string | number {
    if (collection.idType === "string") return randomId(14);
    while (items.has(String(this.#nextNumber))) this.#nextNumber++;
    return this.#nextNumber++;
  }
}
