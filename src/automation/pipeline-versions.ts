/**
 * A Launchpad pipeline's versions (API 1.140.0 on): each is a saved launch; an edit of the
 * pipeline's launch is a draft version, naming it publishes it, and the default one is what a
 * launch without a version runs. tw's `pipelines versions` and `pipelines update`, over
 * `GET /pipelines/{id}/versions`, `PUT /pipelines/{id}` and `PUT .../versions/{id}/manage`.
 */
import type { SeqeraClient } from "../client/client.js";
import { collect, lookup } from "../client/lookup.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { ConflictError } from "../errors/conflict-error.js";
import { hasOperation, requireOperation } from "../openapi/require-operation.js";
import { identified } from "../model/identified.js";
import { toLaunchRequest } from "./launch.js";
import type { PipelineVersionSettings } from "./launch-reads.js";
import { labelIds } from "./labels.js";
import { versionEntries, versionIdOf } from "./launch-versions.js";
import { PIPELINES } from "./names.js";
import { mergeParamsText, type Params } from "./params.js";
import { UnexpectedAnswerError } from "../errors/unexpected-answer-error.js";
import type { LaunchRequest } from "../schema/types.js";

/** A pipeline: its name in the client's workspace, or its id. */
type PipelineRef = string | number;

/** One version of a pipeline, as `pipelineVersions.list` gives it; ids always present. */
export interface PipelineVersion {
  pipelineId: number;
  /** The version's id: `launchPipeline(..., { versionId })` launches it. */
  versionId: string;
  /** Its name; null for a draft (not published). */
  name: string | null;
  draft: boolean;
  isDefault: boolean;
  /** The revision (tag, branch or commit) its launch runs; null when it names none. */
  revision: string | null;
  dateCreated: string | null;
}

const MANAGE = "/pipelines/{pipelineId}/versions/{versionId}/manage";
const VALIDATE = "/pipelines/{pipelineId}/versions/validate";

async function pipelineIdOf(
  client: SeqeraClient,
  pipeline: PipelineRef,
  signal: AbortSignal | undefined,
): Promise<number> {
  if (typeof pipeline === "number") return pipeline;
  const found = await lookup(client, PIPELINES, pipeline, signal);
  return identified(found, ["pipelineId"], "GET /pipelines", "pipelines[]").pipelineId;
}

/**
 * The pipeline's versions, oldest first (`GET /pipelines/{id}/versions`, every page), each
 * with the revision of its launch (one `GET /pipelines/{id}/launch?versionId=` per version);
 * `published: true` for the published ones only, `false` for the drafts.
 */
async function list(
  client: SeqeraClient,
  pipeline: PipelineRef,
  options: { published?: boolean; search?: string; signal?: AbortSignal } = {},
): Promise<PipelineVersion[]> {
  const { signal } = options;
  const pipelineId = await pipelineIdOf(client, pipeline, signal);
  const query = { isPublished: options.published, search: options.search };
  const entries = await collect(versionEntries(client, pipelineId, query, { signal }));
  return Promise.all(
    entries.map(async (entry) => {
      const version = identified(
        entry.version ?? {},
        ["id"],
        "GET /pipelines/{pipelineId}/versions",
        "versions[].version",
      );
      // `versionId` appears with versions (1.140.0): untyped, as the versions list, for every release.
      const answer = (await client.request("GET", "/pipelines/{pipelineId}/launch", {
        params: { path: { pipelineId }, query: { versionId: version.id } },
        signal,
      })) as { launch?: { revision?: string | null } | null } | null;
      const launch = answer?.launch;
      return {
        pipelineId,
        versionId: version.id,
        name: version.name ?? null,
        draft: version.name == null,
        isDefault: version.isDefault === true,
        revision: launch?.revision ?? null,
        dateCreated: version.dateCreated ?? null,
      };
    }),
  );
}

/** What `updatePipeline` changes; what is not given is kept (labels included). */
interface PipelineChanges {
  name?: string;
  description?: string;
  /** The labels ("name" or "name=value", created when missing) instead of the current ones. */
  labels?: string[];
  /** The revision its launch runs. */
  revision?: string;
  /** Deep-merged over the saved params. */
  params?: Params;
  /** Other launch fields, as the request names them (`configProfiles`, `workDir`, ...). */
  launch?: Partial<LaunchRequest>;
  signal?: AbortSignal;
}

/**
 * Changes a pipeline (`PUT /pipelines/{id}`) keeping what is not named: its saved launch is
 * read and sent back with the changes (the service replaces it), and its labels are sent
 * back too (an update without `labelIds` removes them all). A changed launch is a new draft
 * version; resolves with its id (or the version the launch already was).
 */
export async function updatePipeline(
  client: SeqeraClient,
  pipeline: PipelineRef,
  changes: PipelineChanges,
): Promise<{ pipelineId: number; versionId: string | undefined }> {
  const { signal } = changes;
  const pipelineId = await pipelineIdOf(client, pipeline, signal);
  const [described, saved] = await Promise.all([
    client.GET("/pipelines/{pipelineId}", {
      params: { path: { pipelineId }, query: { attributes: ["labels"] } },
      signal,
    }),
    client.GET("/pipelines/{pipelineId}/launch", { params: { path: { pipelineId } }, signal }),
  ]);
  const current = described.pipeline;
  const request = { ...toLaunchRequest(saved.launch ?? {}), ...changes.launch };
  delete request.id;
  if (changes.revision !== undefined) request.revision = changes.revision;
  if (changes.params)
    request.paramsText = await mergeParamsText(request.paramsText, changes.params);
  const ids = changes.labels
    ? (await labelIds(client, changes.labels, signal)).ids
    : (current?.labels ?? []).flatMap((l) => (l.id == null ? [] : [l.id]));
  const answer = await client.PUT("/pipelines/{pipelineId}", {
    params: { path: { pipelineId } },
    body: {
      name: changes.name ?? current?.name ?? undefined,
      description: changes.description ?? current?.description ?? undefined,
      launch: request as LaunchRequest,
      labelIds: ids,
    },
    signal,
  });
  const version = (answer.pipeline as { version?: { id?: string | null } | null } | null)?.version;
  return { pipelineId, versionId: version?.id ?? undefined };
}

/**
 * A new version of the pipeline from a revision: its launch with `revision` (and `params`)
 * changed becomes a draft (`updatePipeline`), published as `name` when given and made the
 * default with `makeDefault`. Resolves with the version.
 */
async function create(
  client: SeqeraClient,
  pipeline: PipelineRef,
  options: {
    revision: string;
    name?: string;
    makeDefault?: boolean;
    params?: Params;
    signal?: AbortSignal;
  },
): Promise<PipelineVersion> {
  const { signal } = options;
  requireOperation(`PUT ${MANAGE}`);
  const pipelineId = await pipelineIdOf(client, pipeline, signal);
  // Versions cannot be deleted: a name refused after the draft was made would leave it behind.
  if (options.name !== undefined && hasOperation(`GET ${VALIDATE}`)) {
    await client
      .request("GET", VALIDATE, {
        params: { path: { pipelineId }, query: { name: options.name } },
        signal,
      })
      .catch((error: unknown) => {
        if (!(error instanceof ConflictError)) throw error;
        throw new ConfigurationError(
          `Pipeline ${pipeline} already has a version named ${JSON.stringify(options.name)}: give the new version another name.`,
        );
      });
  }
  const updated = await updatePipeline(client, pipelineId, {
    revision: options.revision,
    params: options.params,
    signal,
  });
  const versions = await list(client, pipelineId, { signal });
  const version =
    versions.find((v) => v.versionId === updated.versionId) ??
    versions.filter((v) => v.draft && v.revision === options.revision).at(-1);
  if (!version) {
    throw new UnexpectedAnswerError(
      "PUT /pipelines/{pipelineId}",
      "pipeline.version",
      `a version of revision ${options.revision} among the pipeline's versions`,
      versions,
    );
  }
  const rename = options.name !== undefined && options.name !== version.name;
  if (rename || (options.makeDefault && !version.isDefault)) {
    await client.request("PUT", MANAGE, {
      params: { path: { pipelineId, versionId: version.versionId } },
      body: {
        ...(rename && { name: options.name }),
        ...(options.makeDefault && { isDefault: true }),
      },
      signal,
    });
  }
  const name = options.name ?? version.name;
  return {
    ...version,
    name,
    draft: name === null,
    isDefault: version.isDefault || options.makeDefault === true,
  };
}

/**
 * Makes a published version (by `versionId` or `versionName`) the pipeline's default; resolves
 * with both ids.
 */
async function makeDefault(
  client: SeqeraClient,
  pipeline: PipelineRef,
  version: PipelineVersionSettings & { signal?: AbortSignal },
): Promise<{ pipelineId: number; versionId: string }> {
  const { signal } = version;
  requireOperation(`PUT ${MANAGE}`);
  const pipelineId = await pipelineIdOf(client, pipeline, signal);
  const versionId =
    version.versionId ??
    (await versionIdOf(
      client,
      { pipelineId, name: typeof pipeline === "string" ? pipeline : undefined },
      version.versionName ?? "",
      signal,
    ));
  await client.request("PUT", MANAGE, {
    params: { path: { pipelineId, versionId } },
    body: { isDefault: true },
    signal,
  });
  return { pipelineId, versionId };
}

/**
 * A pipeline's versions: `list` them with their revisions, `create` one from a revision (named,
 * and made the default, when asked), `makeDefault` a published one. A pipeline is its name in
 * the client's workspace or its id; `launchPipeline(client, name, { versionName })` launches a
 * version.
 *
 * @example
 * await pipelineVersions.create(client, "rnaseq", { revision: "3.15.0", name: "3.15.0" });
 * await launchPipeline(client, "rnaseq", { versionName: "3.15.0", wait: true });
 * await pipelineVersions.makeDefault(client, "rnaseq", { versionName: "3.15.0" });
 */
export const pipelineVersions: {
  list: typeof list;
  create: typeof create;
  makeDefault: typeof makeDefault;
} = { list, create, makeDefault };
