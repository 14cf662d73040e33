/** Datasets in one call: create (or find) by name, upload a version, get the URL to launch with. */
import type { SeqeraClient } from "../client/client.js";
import { ConflictError } from "../errors/conflict-error.js";
import { UnexpectedAnswerError } from "../errors/unexpected-answer-error.js";
import { find } from "./names.js";

/** What to upload: text or a Blob, or a file read from disk. */
export type DatasetSource =
  { content: string | Blob; file?: never } | { file: string; content?: never };

export type UploadDatasetOptions = DatasetSource & {
  /** The dataset's name; an existing dataset of that name gets a new version. */
  name: string;
  description?: string;
  /** The first row is a header; default false. */
  hasHeader?: boolean;
  /**
   * The file name the service keeps (and the URL ends with); default the file's own name, else
   * `<name>.csv`. A name ending in .tsv makes it tab-separated; anything else is sent as CSV.
   */
  fileName?: string;
  signal?: AbortSignal;
};

export interface UploadedDataset {
  datasetId: string;
  /** The version this upload created (1 for a new dataset). */
  version: number;
  /** The version's URL, for a pipeline's input param. */
  url: string;
}

/**
 * Creates the dataset (`POST /datasets`; when the name is taken, that dataset) and uploads the
 * content as its next version (`POST /datasets/{datasetId}/upload`).
 */
export async function uploadDataset(
  client: SeqeraClient,
  options: UploadDatasetOptions,
): Promise<UploadedDataset> {
  const { signal, name } = options;
  const file = await fileOf(options);
  let datasetId: string;
  try {
    const created = await client.POST("/datasets", {
      body: { name, description: options.description },
      signal,
    });
    datasetId = created.dataset.id;
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    datasetId = (await find.dataset(client, name, { signal })).id!;
  }
  const uploaded = await client.POST("/datasets/{datasetId}/upload", {
    params: { path: { datasetId }, query: { header: options.hasHeader ?? false } },
    body: { file },
    signal,
  });
  const { version } = uploaded;
  if (!version) {
    throw new UnexpectedAnswerError(
      "POST /datasets/{datasetId}/upload",
      "version",
      "the version the upload created",
      uploaded,
    );
  }
  const number = version.version ?? 1;
  return {
    datasetId,
    version: number,
    url:
      version.url ??
      versionUrl(client, await client.resolveWorkspaceId({ signal }), datasetId, number, file.name),
  };
}

async function fileOf(options: UploadDatasetOptions): Promise<File> {
  const blob =
    options.file !== undefined
      ? await (await import("node:fs")).openAsBlob(options.file)
      : options.content;
  const fileName =
    options.fileName ??
    (options.file !== undefined ? (await import("node:path")).basename(options.file) : undefined) ??
    (blob instanceof File ? blob.name : `${options.name}.csv`);
  const type = fileName.toLowerCase().endsWith(".tsv") ? "text/tab-separated-values" : "text/csv";
  return new File([blob ?? ""], fileName, { type });
}

/** The URL form the service gives versions: <api>/workspaces/<id>/datasets/<id>/v/<n>/n/<file>. */
function versionUrl(
  client: SeqeraClient,
  workspaceId: string | undefined,
  datasetId: string,
  version: number,
  fileName: string,
): string {
  const workspace = workspaceId === undefined ? "" : `/workspaces/${workspaceId}`;
  return `${client.config.baseUrl}${workspace}/datasets/${datasetId}/v/${version}/n/${encodeURIComponent(fileName)}`;
}
