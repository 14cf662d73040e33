/**
 * Request bodies of multipart/form-data operations: an object such as `{ file: Blob }` becomes
 * FormData (fetch then sets the boundary). The dataset upload endpoints accept only the dataset's
 * media type (text/csv or text/tab-separated-values) as the part's type, so a Blob without a type
 * is sent there as text/csv; a File keeps its name and type.
 */
import { ConfigurationError } from "../errors/configuration-error.js";
export type BodySerializer = (body: unknown) => FormData;

const DATASET_UPLOADS = new Set(["UploadDataset", "UploadDatasetV2"]);

export function multipartSerializer(operationId: string): BodySerializer {
  const defaultType = DATASET_UPLOADS.has(operationId) ? "text/csv" : undefined;
  return (body) => {
    if (body instanceof FormData) return body;
    if (body === null || typeof body !== "object") {
      throw new ConfigurationError(
        `${operationId} takes a multipart body: an object such as { file: Blob }.`,
      );
    }
    const form = new FormData();
    for (const [name, value] of Object.entries(body)) {
      if (value === undefined || value === null) continue;
      if (value instanceof Blob) appendBlob(form, name, value, defaultType);
      else form.append(name, typeof value === "object" ? JSON.stringify(value) : String(value));
    }
    return form;
  };
}

function appendBlob(
  form: FormData,
  name: string,
  blob: Blob,
  defaultType: string | undefined,
): void {
  const typed = blob.type === "" && defaultType ? new Blob([blob], { type: defaultType }) : blob;
  const fileName = blob instanceof File ? blob.name : defaultFileName(name, typed.type);
  form.append(name, typed, fileName);
}

/** FormData would call it "blob"; the service keeps the name, so give it a fitting extension. */
function defaultFileName(name: string, type: string): string {
  if (type === "text/csv") return `${name}.csv`;
  if (type === "text/tab-separated-values") return `${name}.tsv`;
  return name;
}
