/** Labels by their text ("name", or "name=value" for a resource label), created when missing. */
import type { SeqeraClient } from "../client/client.js";
import { ConflictError } from "../errors/conflict-error.js";

/**
 * The ids of the labels "name" (a plain label) and "name=value" (a resource label), each looked
 * up and created when missing (`POST /labels`), as tw does. A 409 on creating one means another
 * launch created it meanwhile: it is looked up again and used.
 */
export async function labelIds(
  client: SeqeraClient,
  texts: readonly string[],
  signal: AbortSignal | undefined,
): Promise<{ ids: number[]; created: string[] }> {
  const ids: number[] = [];
  const created: string[] = [];
  for (const text of new Set(texts)) {
    const label = labelOf(text);
    let id = await labelId(client, label, signal);
    if (id === undefined) {
      try {
        const { name, value } = label;
        const answer = await client.POST("/labels", {
          body: value === undefined ? { name } : { name, value, resource: true },
          signal,
        });
        id = answer.id!;
        created.push(text);
      } catch (error) {
        if (!(error instanceof ConflictError)) throw error;
        id = await labelId(client, label, signal);
        if (id === undefined) throw error;
      }
    }
    ids.push(id);
  }
  return { ids, created };
}

const labelOf = (text: string) => {
  const cut = text.indexOf("=");
  return cut < 0
    ? { name: text, value: undefined }
    : { name: text.slice(0, cut), value: text.slice(cut + 1) };
};

/**
 * The id of the plain label `name`, or of the resource label `name=value`, searched as tw's
 * LabelsFinder searches (`GET /labels?search=<name>&type=simple|resource`), so that a plain
 * label is not taken for a resource label of its name or the other way round.
 */
async function labelId(
  client: SeqeraClient,
  { name, value }: { name: string; value: string | undefined },
  signal: AbortSignal | undefined,
): Promise<number | undefined> {
  const type = value === undefined ? "simple" : "resource";
  for await (const label of client.paginate("/labels", {
    params: { query: { search: name, type } },
    signal,
  })) {
    if (label.name === name && (label.value ?? undefined) === value && label.id != null) {
      return label.id;
    }
  }
  return undefined;
}
