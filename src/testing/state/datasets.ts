import { ConfigurationError } from "../../errors/configuration-error.js";
import { randomId, serviceTimestamp } from "../ids.js";
import { ScopedStore, type ScopedInit, type WorkspaceResolver } from "./scoped.js";
import type { Entity } from "./store.js";

/** One uploaded file of a dataset; versions count from 1. */
export interface DatasetVersion {
  version: number;
  fileName: string;
  mediaType: string;
  hasHeader: boolean;
  content: Uint8Array;
  dateCreated: string;
  disabled: boolean;
}

export interface Dataset extends Entity<string> {
  name: string;
  description?: string;
  versions: DatasetVersion[];
  labelIds: number[];
}

export interface DatasetInit extends ScopedInit {
  id?: string;
  name: string;
  description?: string;
  /** Files to start from, as uploads would add them (version 1, 2, ...). */
  versions?: DatasetUpload[];
  labelIds?: number[];
}

export interface DatasetUpload {
  /** Default "samples.csv". */
  fileName?: string;
  content: string | Uint8Array;
  /** Default from the file name: "text/csv" or "text/tab-separated-values". */
  mediaType?: string;
  /** Whether the first row names the columns; default true. */
  hasHeader?: boolean;
}

export class DatasetStore extends ScopedStore<Dataset, DatasetInit> {
  constructor(workspace: WorkspaceResolver) {
    super(() => randomId(22), workspace);
  }

  protected build(base: Dataset, init: DatasetInit): Dataset {
    const dataset: Dataset = {
      ...base,
      name: init.name,
      ...(init.description !== undefined && { description: init.description }),
      versions: [],
      labelIds: init.labelIds ?? [],
    };
    for (const upload of init.versions ?? []) addVersion(dataset, upload, base.dateCreated);
    return dataset;
  }

  /** Adds the next version, as an upload does. */
  upload(id: string, upload: DatasetUpload): DatasetVersion {
    const dataset = this.get(id);
    if (!dataset) throw new ConfigurationError(`No dataset ${id}`);
    const version = addVersion(dataset, upload, serviceTimestamp(new Date()));
    dataset.lastUpdated = version.dateCreated;
    return version;
  }
}

function addVersion(dataset: Dataset, upload: DatasetUpload, date: string): DatasetVersion {
  const fileName = upload.fileName ?? "samples.csv";
  const version: DatasetVersion = {
    version: dataset.versions.length + 1,
    fileName,
    mediaType:
      upload.mediaType ?? (/\.tsv$/i.test(fileName) ? "text/tab-separated-values" : "text/csv"),
    hasHeader: upload.hasHeader ?? true,
    content:
      typeof upload.content === "string"
        ? new TextEncoder().encode(upload.content)
        : upload.content,
    dateCreated: date,
    disabled: false,
  };
  dataset.versions.push(version);
  return version;
}
