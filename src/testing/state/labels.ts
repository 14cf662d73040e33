import { numericIds } from "./store.js";
import { ScopedStore, type ScopedInit, type WorkspaceResolver } from "./scoped.js";
import type { Entity } from "./store.js";

/** A simple label (`name`) or a resource label (`name=value`, `resource: true`). */
export interface Label extends Entity<number> {
  name: string;
  value?: string;
  resource: boolean;
  isDefault: boolean;
}

export interface LabelInit extends ScopedInit {
  id?: number;
  name: string;
  /** Makes it a resource label; default none (a simple label). */
  value?: string;
  /** Default: true when a value is given. */
  resource?: boolean;
  /** Default false. */
  isDefault?: boolean;
}

export class LabelStore extends ScopedStore<Label, LabelInit> {
  constructor(workspace: WorkspaceResolver) {
    super(numericIds(1), workspace);
  }

  override add(init: LabelInit): Label {
    // Resource labels share names and differ by value.
    const workspaceId = this.workspace(init.workspaceId);
    const clash = this.list(workspaceId).find(
      (l) => l.name === init.name && l.value === init.value,
    );
    if (clash) throw new Error(`Label ${init.name} already exists`);
    return super.add({ ...init, workspaceId });
  }

  override byName(name: string, workspaceId: number | undefined): Label | undefined {
    return this.list(workspaceId).find((l) => l.name === name);
  }

  protected build(base: Label, init: LabelInit): Label {
    return {
      ...base,
      name: init.name,
      ...(init.value !== undefined && { value: init.value }),
      resource: init.resource ?? init.value !== undefined,
      isDefault: init.isDefault ?? false,
    };
  }
}
