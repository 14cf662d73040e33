import { randomBytes } from "node:crypto";
import { ScopedStore, type ScopedInit, type WorkspaceResolver } from "./scoped.js";
import type { Entity } from "./store.js";

/** The schema's providers: "aws", "google", "azure", ... */
export type DataLinkProvider = string;

/** A bucket (or container) of a workspace, with the objects under it. */
export interface DataLink extends Entity<string> {
  name: string;
  description?: string;
  provider: DataLinkProvider;
  /** "s3://bucket", "gs://bucket", "az://container". */
  resourceRef: string;
  region?: string;
  /** The credentials it is read with; none for a public bucket. */
  credentialsId?: string;
  publicAccessible: boolean;
  /** Object keys ("reads/a.fastq") and their content; folders are the keys' prefixes. */
  objects: Map<string, Uint8Array>;
  /** Why the cloud refuses the link's credentials (listed as its INVALID message). */
  credentialsError?: string;
  /** What browsing, the tree and downloads answer instead of the objects. */
  browseError?: BrowseError;
}

/** A failure of a data link's browse, tree and downloads: a status and the service's message. */
export interface BrowseError {
  /** Default 500. */
  status?: number;
  /** Default "Unexpected error while processing request". */
  message?: string;
}

export interface DataLinkInit extends ScopedInit {
  id?: string;
  /** Default: the bucket's name. */
  name?: string;
  resourceRef: string;
  description?: string;
  /** Default from the scheme: s3 aws, gs google, az azure. */
  provider?: DataLinkProvider;
  region?: string;
  credentialsId?: string;
  publicAccessible?: boolean;
  /** Objects by key: their text, or their size in bytes (content of that many bytes). */
  objects?: Record<string, string | number>;
  /**
   * The cloud refuses the link's credentials with this message (keys revoked, a wrong
   * secret): the link is listed INVALID with it, and browsing it fails as for any invalid link.
   */
  credentialsError?: string;
  /** Browsing, the tree and downloads of this (valid) link fail with this answer. */
  browseError?: BrowseError;
}

const PROVIDERS: Record<string, DataLinkProvider> = { s3: "aws", gs: "google", az: "azure" };

export class DataLinkStore extends ScopedStore<DataLink, DataLinkInit> {
  constructor(workspace: WorkspaceResolver) {
    // Shaped like the service's ids: "v1-cloud-<32 hex digits>".
    super(() => `v1-cloud-${randomBytes(16).toString("hex")}`, workspace);
  }

  protected build(base: DataLink, init: DataLinkInit): DataLink {
    const [scheme = "", bucket = init.resourceRef] = init.resourceRef.split("://");
    const objects = new Map<string, Uint8Array>();
    for (const [key, value] of Object.entries(init.objects ?? {})) {
      objects.set(
        key,
        typeof value === "number" ? new Uint8Array(value) : new TextEncoder().encode(value),
      );
    }
    return {
      ...base,
      name: init.name ?? bucket.split("/")[0]!,
      ...(init.description !== undefined && { description: init.description }),
      provider: init.provider ?? PROVIDERS[scheme] ?? "aws",
      resourceRef: init.resourceRef,
      ...(init.region !== undefined && { region: init.region }),
      ...(init.credentialsId !== undefined && { credentialsId: init.credentialsId }),
      publicAccessible: init.publicAccessible ?? false,
      objects,
      ...(init.credentialsError !== undefined && { credentialsError: init.credentialsError }),
      ...(init.browseError !== undefined && { browseError: init.browseError }),
    };
  }

  /** Adds (or replaces) an object, as an upload would. */
  putObject(id: string, key: string, content: string | Uint8Array): void {
    const link = this.get(id);
    if (!link) throw new Error(`No data link ${id}`);
    link.objects.set(
      key,
      typeof content === "string" ? new TextEncoder().encode(content) : content,
    );
  }
}
