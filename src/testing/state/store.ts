import { ConfigurationError } from "../../errors/configuration-error.js";
import { serviceTimestamp } from "../ids.js";

/** What every stored entity has: an id, the workspace it lives in, and its dates. */
export interface Entity<Id extends string | number = string | number> {
  id: Id;
  /** The workspace it belongs to; undefined for the user's own (personal) context. */
  workspaceId?: number;
  /** Service timestamp ("2024-01-01T00:00:00Z"); settable when seeding. */
  dateCreated: string;
  lastUpdated: string;
}

/** The dates an `add(...)` may set; both default to now, `lastUpdated` to `dateCreated`. */
export interface Dated {
  dateCreated?: string | Date;
  lastUpdated?: string | Date;
}

/**
 * Normalises a seeded date to the service's form (whole seconds, "Z"): an ISO 8601 date, or a
 * time before now as "-7h", "-2d", "-1d12h", "-90m", "-30s" (a seed of last night's runs stays
 * last night's whenever it is served).
 */
export function timestamp(value: string | Date | undefined, fallback?: string): string {
  if (value === undefined) return fallback ?? serviceTimestamp(new Date());
  const date = typeof value === "string" ? parseDate(value) : value;
  if (Number.isNaN(date.getTime())) {
    throw new ConfigurationError(
      `Not a date: ${JSON.stringify(String(value))}. A seed's dates are ISO 8601 ("2024-05-02T01:00:00Z") or a time before now ("-7h", "-2d", "-1d12h"; units d, h, m, s).`,
    );
  }
  return serviceTimestamp(date);
}

const UNIT_MS = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1_000 } as const;

function parseDate(text: string): Date {
  if (!text.startsWith("-")) return new Date(text);
  const parts = /^-((?:\d+[dhms])+)$/.exec(text.trim());
  if (!parts) return new Date(NaN);
  let ago = 0;
  for (const [, amount, unit] of parts[1]!.matchAll(/(\d+)([dhms])/g)) {
    ago += Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS];
  }
  return new Date(Date.now() - ago);
}

/**
 * The entities of one kind, in insertion order. Listing is scoped to a workspace, as every
 * list operation of the service is.
 */
export class Store<T extends Entity> {
  protected readonly items = new Map<T["id"], T>();

  constructor(private readonly nextId: (taken: (id: T["id"]) => boolean) => T["id"]) {}

  /** A new id not yet taken. */
  protected newId(): T["id"] {
    return this.nextId((id) => this.items.has(id));
  }

  /** Stores a fully built entity; an id already taken is a mistake in the test's seed. */
  protected insert(entity: T): T {
    if (this.items.has(entity.id))
      throw new ConfigurationError(`Id ${String(entity.id)} is already taken`);
    this.items.set(entity.id, entity);
    return entity;
  }

  get(id: T["id"]): T | undefined {
    return this.items.get(id);
  }

  /** Every entity, or those of one workspace (undefined: the personal context). */
  all(): T[] {
    return [...this.items.values()];
  }

  list(workspaceId: number | undefined): T[] {
    return this.all().filter((e) => e.workspaceId === workspaceId);
  }

  /** The entity named `name` in a workspace, if the kind has names. */
  byName(name: string, workspaceId: number | undefined): T | undefined {
    return this.list(workspaceId).find((e) => (e as { name?: unknown }).name === name);
  }

  /** Changes fields of an entity and touches `lastUpdated`. */
  update(id: T["id"], changes: Partial<Omit<T, "id">>): T {
    const entity = this.items.get(id);
    if (!entity) throw new ConfigurationError(`No entity ${String(id)}`);
    Object.assign(entity, changes, { lastUpdated: serviceTimestamp(new Date()) });
    return entity;
  }

  delete(id: T["id"]): boolean {
    return this.items.delete(id);
  }
}

/** Numeric ids counting up from `start`, skipping ids a seed already took. */
export function numericIds(start: number): (taken: (id: number) => boolean) => number {
  let next = start;
  return (taken) => {
    while (taken(next)) next++;
    return next++;
  };
}
