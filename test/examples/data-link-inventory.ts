import { createSeqeraClient, find } from "seqera-api-client";

/** Every data link of the workspace: its status, and the objects and bytes under `folder`. */
export async function dataLinkInventory(workspace: string, folder: string) {
  const client = createSeqeraClient().withWorkspace(workspace);
  const inventory = [];
  for await (const { name } of client.paginate("/data-links")) {
    const { status, objects, bytes } = await find.dataLink(client, name!, { under: folder });
    inventory.push({ name, status, objects: objects.length, bytes });
  }
  return inventory;
}
