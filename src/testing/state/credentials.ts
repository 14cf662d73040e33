import { randomId } from "../ids.js";
import { ScopedStore, type ScopedInit, type WorkspaceResolver } from "./scoped.js";
import type { Entity } from "./store.js";

export interface Credentials extends Entity<string> {
  name: string;
  /** The schema's providers: "aws", "google", "azure", "github", "ssh", ... */
  provider: string;
  description?: string;
  /** As sent when created; never part of an answer, as on the service. */
  keys: Record<string, unknown>;
}

export interface CredentialsInit extends ScopedInit {
  id?: string;
  name: string;
  /** Default "aws". */
  provider?: string;
  description?: string;
  keys?: Record<string, unknown>;
}

export class CredentialsStore extends ScopedStore<Credentials, CredentialsInit> {
  constructor(workspace: WorkspaceResolver) {
    super(() => randomId(22), workspace);
  }

  protected build(base: Credentials, init: CredentialsInit): Credentials {
    return {
      ...base,
      name: init.name,
      provider: init.provider ?? "aws",
      ...(init.description !== undefined && { description: init.description }),
      keys: init.keys ?? {},
    };
  }
}
