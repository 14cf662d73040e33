import { numericIds } from "./store.js";
import { ScopedStore, type ScopedInit, type WorkspaceResolver } from "./scoped.js";
import type { Entity } from "./store.js";

/** A pipeline secret; its value is kept for assertions but never answered, as on the service. */
export interface Secret extends Entity<number> {
  name: string;
  value: string;
  lastUsed?: string;
}

export interface SecretInit extends ScopedInit {
  id?: number;
  /** Letters, digits and single underscores, as the service requires. */
  name: string;
  /** Default "secret". */
  value?: string;
}

export class SecretStore extends ScopedStore<Secret, SecretInit> {
  constructor(workspace: WorkspaceResolver) {
    super(numericIds(1), workspace);
  }

  protected build(base: Secret, init: SecretInit): Secret {
    return { ...base, name: init.name, value: init.value ?? "secret" };
  }
}
