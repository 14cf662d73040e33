/** A Launchpad pipeline's versions, as a launch names them: by id, or by name. */
import type { SeqeraClient } from "../client/client.js";
import { NameNotFoundError } from "../errors/name-not-found-error.js";
import { requireOperation } from "../openapi/require-operation.js";
import { collect } from "../client/lookup.js";
import { paginateUntyped } from "../client/paginate.js";
import { MAX_PAGE_SIZE } from "../openapi/operation-info.js";
import { nearNames } from "../core/near-names.js";

const VERSIONS = "/pipelines/{pipelineId}/versions";

/** What the version helpers read of a `GET /pipelines/{pipelineId}/versions` entry, on every release. */
export interface VersionEntry {
  version?: {
    id?: string | null;
    name?: string | null;
    isDefault?: boolean | null;
    dateCreated?: string | null;
  } | null;
}

/**
 * The pipeline's versions the query selects, every page (`limit` for fewer). Pipeline versions
 * appear in 1.140.0: an older release refuses here, before any request.
 */
export function versionEntries(
  client: SeqeraClient,
  pipelineId: number,
  query: { search?: string; isPublished?: boolean },
  page: { limit?: number; signal: AbortSignal | undefined },
): AsyncIterable<VersionEntry> {
  requireOperation(`GET ${VERSIONS}`);
  return paginateUntyped<VersionEntry>(client, VERSIONS, {
    params: { path: { pipelineId }, query },
    ...page,
  });
}

/**
 * The id of the pipeline's published version named `name`, as tw looks it up; else a
 * NameNotFoundError naming the near published names, the pipeline by its name when known, and
 * the workspace as the client was given it.
 */
export async function versionIdOf(
  client: SeqeraClient,
  { pipelineId, name: pipelineName }: { pipelineId: number; name?: string | null },
  name: string,
  signal: AbortSignal | undefined,
): Promise<string> {
  for await (const { version } of versionEntries(
    client,
    pipelineId,
    { search: name, isPublished: true },
    { signal },
  )) {
    if (version?.name === name && version.id != null) return version.id;
  }
  // The search found none of that name: a page of the published ones, for near names.
  const published = await collect(
    versionEntries(client, pipelineId, { isPublished: true }, { limit: MAX_PAGE_SIZE, signal }),
  );
  const candidates = nearNames(
    name,
    published.flatMap(({ version }) => version?.name ?? []),
  );
  const workspaceId = await client.resolveWorkspaceId({ signal });
  const where =
    client.config.workspaceId === undefined ? "" : ` in workspace ${client.config.workspaceId}`;
  const near = candidates.map((c) => JSON.stringify(c)).join(", ");
  throw new NameNotFoundError(
    "pipeline version",
    name,
    workspaceId,
    candidates,
    `No published version named ${JSON.stringify(name)} of pipeline ${pipelineName ?? pipelineId}${where}${near ? `; did you mean ${near}?` : ""}`,
  );
}
