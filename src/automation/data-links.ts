/**
 * The objects under a folder of a data link, browsed folder by folder, each a page at a time
 * (`GET /data-links/{dataLinkId}/browse/{path}` with its `nextPageToken`): the tree operation
 * (`browse-tree`) answers every object in one page, however large the bucket.
 */
import type { SeqeraClient } from "../client/client.js";

/** An object (a file) of a data link: its path from the bucket's root, and its size in bytes. */
export interface DataLinkObject {
  path: string;
  size: number;
}

/** What is under a folder of a data link: its objects, at any depth, and their bytes. */
export interface DataLinkContent {
  objects: DataLinkObject[];
  bytes: number;
}

/** Every object under `folder` ("runs", "runs/", "/runs/"; "" for the whole bucket). */
export async function contentUnder(
  client: SeqeraClient,
  dataLinkId: string,
  folder: string,
  signal: AbortSignal | undefined,
): Promise<DataLinkContent> {
  const objects: DataLinkObject[] = [];
  const folders = [folder.replace(/^\/+|\/+$/g, "")];
  for (let path = folders.shift(); path !== undefined; path = folders.shift()) {
    const items =
      path === ""
        ? client.paginate("/data-links/{dataLinkId}/browse", {
            // Typed for releases before 1.102.0 too, whose schema declares a `path` here.
            params: { path: { dataLinkId } as { dataLinkId: string; path: string } },
            signal,
          })
        : client.paginate("/data-links/{dataLinkId}/browse/{path}", {
            params: { path: { dataLinkId, path } },
            signal,
          });
    for await (const item of items) {
      const itemPath = path === "" ? (item.name ?? "") : `${path}/${item.name ?? ""}`;
      if (item.type === "FOLDER") folders.push(itemPath);
      else objects.push({ path: itemPath, size: item.size ?? 0 });
    }
  }
  return { objects, bytes: objects.reduce((sum, object) => sum + object.size, 0) };
}
