/**
 * What the service holds for a resource of the files, read by its family's operations, and how
 * it differs from what the files say.
 */
import type { SeqeraClient } from "../../client/client.js";
import { idOf } from "../../model/derive.js";
import type { Family } from "../../model/family.js";
import { requireOperation } from "../../openapi/require-operation.js";
import type { Label } from "../../schema/types.js";
import { LABELS } from "../names.js";
import { getPath, isObject, setPath } from "./desired.js";

/** One field's change; a secret's value is shown as "(redacted)". */
export interface PlanChange {
  field: string;
  from?: unknown;
  to?: unknown;
}

export const REDACTED = "(redacted)";

/** The path parameters of a resource's scope: `{ orgId }` for a workspace of an organization. */
export type ScopeParams = Readonly<Record<string, string>>;

/** The resource as its describe operation (and the family's `reads`) answers it. */
export async function readActual(
  client: SeqeraClient,
  family: Family,
  listed: object,
  path: ScopeParams,
  id: string,
  signal: AbortSignal | undefined,
): Promise<Record<string, unknown>> {
  const describe = family.operations.describe;
  // The service answers a resource's labels only when asked (`attributes=labels`), where it can be.
  const query =
    family.file.labels && describe && "attributes" in requireOperation(describe).query
      ? { attributes: ["labels"] }
      : undefined;
  const actual: Record<string, unknown> = describe
    ? ((await answerFor(client, describe, path, id, family, signal, query)) ?? { ...listed })
    : { ...listed };
  if (family.file.labels) {
    // As the file names them ("name", "name=value"), in the order desiredOf sorts them in.
    const labels = Array.isArray(actual.labels) ? (actual.labels as Label[]) : [];
    actual.labels = labels.map((label) => LABELS.names(label)[0]!).sort();
  }
  for (const [field, operation] of Object.entries(family.file.reads ?? {})) {
    const answer = (await callOn(client, operation, path, id, signal))?.[field];
    if (isObject(answer)) actual[field] = answer;
  }
  for (const [field, at] of Object.entries(family.file.answers ?? {})) {
    const value = getPath(actual, at);
    if (getPath(actual, field) === undefined && value !== undefined) setPath(actual, field, value);
  }
  return actual;
}

/** The describe answer's object for this id (the answer wraps it: `{ computeEnv: {...} }`). */
async function answerFor(
  client: SeqeraClient,
  operation: string,
  path: ScopeParams,
  id: string,
  family: Family,
  signal: AbortSignal | undefined,
  query: Record<string, unknown> | undefined,
): Promise<Record<string, unknown> | undefined> {
  const answer = await callOn(client, operation, path, id, signal, undefined, query);
  return Object.values(answer ?? {}).find(
    (value): value is Record<string, unknown> => isObject(value) && idOf(family, value) === id,
  );
}

/**
 * An operation of the family, untyped (the family names it): its last path parameter is the
 * resource's id (none for a create), the others its scope's; `body` for a create or update,
 * `query` for the operation's other parameters.
 */
export async function callOn(
  client: SeqeraClient,
  operation: string,
  scope: ScopeParams,
  id: string | undefined,
  signal: AbortSignal | undefined,
  body?: unknown,
  query?: Record<string, unknown>,
): Promise<Record<string, unknown> | undefined> {
  const [method, path] = operation.split(" ") as [string, string];
  const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const last = params.at(-1);
  const values =
    id === undefined || last === undefined || last in scope ? scope : { ...scope, [last]: id };
  const init = {
    params: { path: values, ...(query && { query }) },
    signal,
    ...(body !== undefined && { body }),
  };
  const answer = await client.request(method, path, init);
  return isObject(answer) ? answer : undefined;
}

/**
 * The fields of `desired` (leaf by leaf, those the family compares) that `actual` does not
 * hold; secrets are never compared on an existing resource, and shown redacted on a new one.
 */
export function diff(
  family: Family,
  desired: Record<string, unknown>,
  actual: Record<string, unknown>,
  creating: boolean,
): PlanChange[] {
  const changes: PlanChange[] = [];
  const secret = family.file.secret ?? [];
  const walk = (value: unknown, path: string) => {
    if (isObject(value)) {
      for (const [key, item] of Object.entries(value)) walk(item, path ? `${path}.${key}` : key);
      return;
    }
    const top = path.split(".")[0]!;
    if (!family.fields.includes(top) || value === undefined || value === null) return;
    // The tag the plan adds from the platform or provider, compared through them.
    if (path.endsWith(".discriminator")) return;
    if (secret.includes(top)) {
      if (creating) changes.push({ field: path, to: REDACTED });
      return;
    }
    const now = getPath(actual, path);
    if (!same(value, now))
      changes.push({ field: path, ...(now != null && { from: now }), to: value });
  };
  walk(desired, "");
  return changes;
}

function same(a: unknown, b: unknown): boolean {
  if (isObject(a) && isObject(b)) return Object.keys(a).every((k) => same(a[k], b[k]));
  return JSON.stringify(a) === JSON.stringify(b);
}
