/**
 * Answers a client keeps beside its names (a compute environment described by id, a pipeline's
 * saved launch, the service's Nextflow catalog): kept by the lookup engine (lookup.ts) under
 * its rules, per client family and workspace, one fetch shared by concurrent callers, dropped
 * after the family's own changes.
 */
import type { SeqeraClient } from "./types.js";
import { answeredGone, join, listOf, workspaceOf, type Lookup } from "./lookup.js";

/**
 * One answer per key (a resource described by its id, a pipeline's saved launch), kept as the
 * lists are: per client family and workspace (or, `global`, for all of them: the key then
 * names what it needs), one fetch shared by concurrent callers, dropped after this client
 * family's own successful `changedBy` operations.
 */
export interface KeptAnswer<T> {
  /** What it is, told apart from every lookup's kind (lookup.ts drops other views of one kind). */
  kind: string;
  fetch(client: SeqeraClient, signal: AbortSignal | undefined, key: string): Promise<T>;
  global?: boolean;
  changedBy: readonly string[];
}

/** Each kept answer as the engine keeps it: a searched kind whose "name" is the key. */
const answerKinds = new WeakMap<KeptAnswer<unknown>, Lookup<unknown>>();

function answerKind(answer: KeptAnswer<unknown>): Lookup<unknown> {
  let kind = answerKinds.get(answer);
  if (!kind) {
    kind = {
      kind: answer.kind,
      global: answer.global,
      searched: true,
      list: async (client, signal, key) => [await answer.fetch(client, signal, key)],
      names: () => [],
      id: () => "",
      changedBy: answer.changedBy,
    };
    answerKinds.set(answer, kind);
  }
  return kind;
}

/** The answer for `key`, kept or fetched (`fresh`: fetched); a copy, so a caller's changes stay its own. */
async function readAnswer<T>(
  client: SeqeraClient,
  answer: KeptAnswer<T>,
  key: string,
  signal: AbortSignal | undefined,
  fresh = false,
): Promise<{ value: T; wasKept: boolean }> {
  const kind = answerKind(answer as KeptAnswer<unknown>);
  const workspaceId = await workspaceOf(client, kind, signal);
  const { shared, wasKept } = listOf(client, kind, workspaceId, fresh, key);
  const [value] = await join(shared, signal);
  return { value: structuredClone(value) as T, wasKept };
}

/** The answer for `key`, kept or fetched. */
export async function keptAnswer<T>(
  client: SeqeraClient,
  answer: KeptAnswer<T>,
  key: string,
  signal: AbortSignal | undefined,
): Promise<T> {
  return (await readAnswer(client, answer, key, signal)).value;
}

/**
 * Calls `use` with the answer for `key`. When `use` fails with 403 or 404 and the answer was
 * kept, it is fetched again and, if it changed since, `use` is called once more with it: what it
 * named may have been replaced meanwhile by someone else.
 */
export async function withKeptAnswer<T, R>(
  client: SeqeraClient,
  answer: KeptAnswer<T>,
  key: string,
  signal: AbortSignal | undefined,
  use: (value: T) => Promise<R>,
): Promise<R> {
  const { value, wasKept } = await readAnswer(client, answer, key, signal);
  try {
    return await use(value);
  } catch (error) {
    if (!wasKept || !answeredGone(error)) throw error;
    const again = (await readAnswer(client, answer, key, signal, true)).value;
    if (JSON.stringify(again) === JSON.stringify(value)) throw error;
    return use(again);
  }
}
