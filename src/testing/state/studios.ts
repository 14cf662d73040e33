import { randomId } from "../ids.js";
import { ScopedStore, type ScopedInit, type WorkspaceResolver } from "./scoped.js";
import { timestamp, type Entity } from "./store.js";

/** A studio's status, as the service writes it (lowercase). */
export type StudioStatus =
  "starting" | "running" | "stopping" | "stopped" | "errored" | "building" | "buildFailed";

/** A Data Studio session of a workspace. */
export interface Studio extends Entity<string> {
  name: string;
  description?: string;
  status: StudioStatus;
  /** When the status last changed. */
  statusUpdated: string;
  computeEnvId?: string;
  /** The tool's container image, e.g. "cr.seqera.io/public/data-studio-vscode:1.93.1". */
  image: string;
  lastStarted?: string;
  isPrivate: boolean;
  /** CPUs, memory (MiB), GPUs and mounted data-link ids, as the create request sent them. */
  configuration: Record<string, unknown>;
  labelIds: number[];
  /** Why a stop fails: the studio goes from `stopping` to `errored` with it. */
  stopError?: string;
  /** The status's message (`statusInfo.message`), set when a stop failed. */
  statusMessage?: string;
}

export interface StudioInit extends ScopedInit {
  id?: string;
  name: string;
  description?: string;
  /** Default "stopped". */
  status?: StudioStatus;
  computeEnvId?: string;
  /** Default the VS Code image. */
  image?: string;
  lastStarted?: string | Date;
  isPrivate?: boolean;
  configuration?: Record<string, unknown>;
  labelIds?: number[];
  /**
   * Its stops fail with this message: a stop is accepted (`stopping`), then the studio is
   * `errored` with it in `statusInfo.message` instead of `stopped`.
   */
  stopError?: string;
}

const DEFAULT_IMAGE = "cr.seqera.io/public/data-studio-vscode:1.93.1";

/** What each status moves to when the studio is advanced (a poll under `autoAdvance`). */
const NEXT: Partial<Record<StudioStatus, StudioStatus>> = {
  starting: "running",
  building: "starting",
  stopping: "stopped",
};

export class StudioStore extends ScopedStore<Studio, StudioInit> {
  constructor(workspace: WorkspaceResolver) {
    // Session ids are 8 hex digits on the service.
    super(() => randomId(8).toLowerCase(), workspace);
  }

  protected build(base: Studio, init: StudioInit): Studio {
    return {
      ...base,
      name: init.name,
      ...(init.description !== undefined && { description: init.description }),
      status: init.status ?? "stopped",
      statusUpdated: base.lastUpdated,
      ...(init.computeEnvId !== undefined && { computeEnvId: init.computeEnvId }),
      image: init.image ?? DEFAULT_IMAGE,
      ...(init.lastStarted !== undefined && { lastStarted: timestamp(init.lastStarted) }),
      isPrivate: init.isPrivate ?? false,
      configuration: init.configuration ?? { cpu: 2, memory: 8192, gpu: 0, mountData: [] },
      labelIds: init.labelIds ?? [],
      ...(init.stopError !== undefined && { stopError: init.stopError }),
    };
  }

  /** Sets the status (a test control), as the service's own transitions do. */
  setStatus(id: string, status: StudioStatus, message?: string): Studio {
    const now = timestamp(undefined);
    return this.update(id, {
      status,
      statusUpdated: now,
      statusMessage: message,
      ...(status === "starting" && { lastStarted: now }),
    });
  }

  /**
   * starting → running, stopping → stopped (errored with its `stopError` when its stops
   * fail), building → starting; others stay.
   */
  advance(id: string): Studio {
    const studio = this.get(id);
    if (!studio) throw new Error(`No studio ${id}`);
    if (studio.status === "stopping" && studio.stopError !== undefined) {
      return this.setStatus(id, "errored", studio.stopError);
    }
    const next = NEXT[studio.status];
    return next ? this.setStatus(id, next) : studio;
  }
}
