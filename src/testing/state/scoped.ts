import { ConfigurationError } from "../../errors/configuration-error.js";
import { Store, timestamp, type Dated, type Entity } from "./store.js";

/**
 * A workspace as a test names it: its id, or "org/workspace" as TOWER_WORKSPACE_ID accepts.
 * Undefined is the user's personal context. Seeding into a workspace that does not exist yet
 * creates it (and its organization); a request naming an unknown workspace is refused.
 */
export type WorkspaceRef = number | string;

export interface ScopedInit extends Dated {
  workspaceId?: WorkspaceRef;
}

/** Finds (or, for seeding, creates) a workspace; undefined stays the personal context. */
export type WorkspaceResolver = (ref: WorkspaceRef | undefined) => number | undefined;

/** A store of entities that live in a workspace; `build` adds the kind's own fields. */
export abstract class ScopedStore<T extends Entity, Init extends ScopedInit> extends Store<T> {
  constructor(
    nextId: (taken: (id: T["id"]) => boolean) => T["id"],
    protected readonly workspace: WorkspaceResolver,
  ) {
    super(nextId);
  }

  add(init: Init): T {
    const workspaceId = this.workspace(init.workspaceId);
    const dateCreated = timestamp(init.dateCreated);
    const base: Entity = {
      id: (init as { id?: T["id"] }).id ?? this.newId(),
      dateCreated,
      lastUpdated: timestamp(init.lastUpdated, dateCreated),
    };
    if (workspaceId !== undefined) base.workspaceId = workspaceId;
    if (this.clashes(init, workspaceId)) {
      const name = String((init as { name?: unknown }).name);
      throw new ConfigurationError(
        `${name} already exists in workspace ${workspaceId ?? "(personal)"}`,
      );
    }
    return this.insert(this.build(base as T, init));
  }

  /** Whether the workspace already has what `init` would add: by default, its name. */
  protected clashes(init: Init, workspaceId: number | undefined): boolean {
    const name = (init as { name?: unknown }).name;
    return typeof name === "string" && this.byName(name, workspaceId) !== undefined;
  }

  protected abstract build(base: T, init: Init): T;
}
