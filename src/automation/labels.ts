/** Labels by their text ("name", or "name=value" for a resource label), created when missing. */
import type { SeqeraClient } from "../client/client.js";
import { lookupOptional } from "../client/lookup.js";
import { ConflictError } from "../errors/conflict-error.js";
import { LABELS } from "./names.js";

/**
 * The ids of the labels "name" (a plain label) and "name=value" (a resource label), each found
 * as `find.label` finds it and created when missing (`POST /labels`), as tw does. A 409 on
 * creating one means another launch created it meanwhile: it is looked up again and used.
 */
export async function labelIds(
  client: SeqeraClient,
  texts: readonly string[],
  signal: AbortSignal | undefined,
): Promise<{ ids: number[]; created: string[] }> {
  const ids: number[] = [];
  const created: string[] = [];
  for (const text of new Set(texts)) {
    let id = await labelId(client, text, signal);
    if (id === undefined) {
      try {
        const cut = text.indexOf("=");
        const answer = await client.POST("/labels", {
          body:
            cut < 0
              ? { name: text }
              : { name: text.slice(0, cut), value: text.slice(cut + 1), resource: true },
          signal,
        });
        id = answer.id!;
        created.push(text);
      } catch (error) {
        if (!(error instanceof ConflictError)) throw error;
        id = await labelId(client, text, signal);
        if (id === undefined) throw error;
      }
    }
    ids.push(id);
  }
  return { ids, created };
}

/** The label's id, from the labels kept per client (a kept answer without it is asked again). */
async function labelId(
  client: SeqeraClient,
  text: string,
  signal: AbortSignal | undefined,
): Promise<number | undefined> {
  return (await lookupOptional(client, LABELS, text, signal))?.id ?? undefined;
}
