/**
 * A plan: what applying the files would do to each resource they name, decided from the
 * resource model alone (families.ts): each entry's resource is found by name through its
 * family's lookup, read by its describe operation, its `fields` compared with the file's, and
 * a difference is an update when the family's update operation changes those fields in place
 * (`updatable`), else a replace, said before anything is done.
 */
import type { SeqeraClient } from "../../client/client.js";
import { lookupOptional } from "../../client/lookup.js";
import { ConfigurationError } from "../../errors/configuration-error.js";
import { FAMILIES, type Family, type FamilyName } from "../../model/families.js";
import { idOf } from "../../model/derive.js";
import { FAMILY_LOOKUPS } from "../names.js";
import { readEntries, type DeclarationSource, type Entry } from "./documents.js";
import { desiredOf, getPath, isObject, setPath, type Desired } from "./desired.js";

export type PlanAction = "create" | "update" | "replace" | "delete" | "unchanged";

/** One field's change; a secret's value is shown as "(redacted)". */
export interface PlanChange {
  field: string;
  from?: unknown;
  to?: unknown;
}

/** What the plan does to one resource of the files. */
export interface PlanStep {
  kind: string;
  name: string;
  /** The entry's `workspace`, else the client's (its id); null for the user's own. */
  workspace: string | null;
  action: PlanAction;
  changes: PlanChange[];
  /** Why a replace (a field the update cannot change), or why nothing is done. */
  reason?: string;
  /** Where the files name it: "file:line". */
  at: string;
}

export interface Plan {
  /** In order of dependence (deletes: dependents first). */
  steps: PlanStep[];
  /** How many steps change something: 0 is "nothing to do". */
  pending: number;
}

export interface PlanOptions {
  /** Only these kinds (seqerakit's `--targets`). */
  targets?: readonly string[];
  /** Delete what the files name, instead of creating or updating it. */
  delete?: boolean;
  /** Where `$VAR` and `${VAR}` are read; default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
}

/** What applying a step needs, kept off the printed plan. */
export interface StepWork {
  entry: Entry;
  desired: Desired;
  /** The existing resource's id (update, replace, delete). */
  id?: string;
}

export const WORK = new WeakMap<PlanStep, StepWork>();
export const REDACTED = "(redacted)";
const ORDER = Object.keys(FAMILIES);

/**
 * Reads the files (checked before any request), then finds and compares each resource they
 * name; ConfigurationError for bad input or a reference to a resource neither in the files
 * nor in the service.
 */
export async function planResources(
  client: SeqeraClient,
  documents: readonly (DeclarationSource | string)[],
  options: PlanOptions = {},
): Promise<Plan> {
  const { signal } = options;
  const entries = await readEntries(documents, options.env ?? process.env);
  if (options.targets) {
    const known = options.targets.filter(
      (t) => !entries.some((e) => e.kind === t) && !(t in FAMILIES),
    );
    if (known.length) throw new ConfigurationError(`--targets: unknown kind ${known.join(", ")}`);
  }
  const chosen = entries
    .filter((e) => !options.targets || options.targets.includes(e.kind))
    .sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind));
  if (options.delete) chosen.reverse();
  const steps: PlanStep[] = [];
  for (const entry of chosen) {
    const work: StepWork = { entry, desired: await desiredOf(entry) };
    const inWorkspace = clientFor(client, entry);
    const workspace = entry.workspace ?? (await client.resolveWorkspaceId({ signal })) ?? null;
    const family: Family = FAMILIES[entry.kind];
    const found = await lookupOptional(inWorkspace, lookupOf(entry.kind), entry.name, signal);
    const step = (action: PlanAction, changes: PlanChange[] = [], reason?: string) => {
      const made: PlanStep = {
        kind: entry.kind,
        name: entry.name,
        workspace,
        action,
        changes,
        at: entry.at,
      };
      if (reason !== undefined) made.reason = reason;
      WORK.set(made, work);
      steps.push(made);
    };
    if (found) work.id = idOf(family, found);
    if (options.delete) {
      if (found) step("delete");
      continue;
    }
    await resolveReferences(inWorkspace, work, entries, signal);
    if (!found) {
      step("create", diff(family, work.desired.fields, {}, true));
      continue;
    }
    const actual = await readActual(inWorkspace, family, found, work.id!, signal);
    const changes = diff(family, work.desired.fields, actual, false);
    if (changes.length === 0) step("unchanged");
    else if (entry.onExists === "ignore") step("unchanged", [], "on_exists: ignore");
    else if (entry.onExists === "fail") {
      const fields = changes.map((c) => c.field).join(", ");
      throw new ConfigurationError(
        `${entry.at}: ${entry.kind} "${entry.name}" exists and differs (${fields}): set on_exists: update to change it, or ignore`,
      );
    } else {
      const fixed = changes.filter((c) => !(family.updatable ?? []).includes(topOf(c.field)));
      const update = family.operations.update;
      if (fixed.length === 0 && update) step("update", changes);
      else {
        const why = update
          ? `${fixed.map((c) => c.field).join(", ")} cannot change in place (${update} does not change ${[...new Set(fixed.map((c) => topOf(c.field)))].join(", ")})`
          : `the API has no update operation for a ${family.noun}`;
        step("replace", changes, why);
      }
    }
  }
  return { steps, pending: steps.filter((s) => s.action !== "unchanged").length };
}

export function lookupOf(kind: FamilyName) {
  const found = FAMILY_LOOKUPS[kind];
  if (!found) throw new ConfigurationError(`${kind}: not supported yet by plan and apply`);
  return found;
}

/** The client in the entry's workspace. */
export function clientFor(client: SeqeraClient, entry: Entry): SeqeraClient {
  return entry.workspace === undefined ? client : client.withWorkspace(entry.workspace);
}

function topOf(field: string): string {
  return field.split(".")[0]!;
}

/**
 * Each reference's id, from the service; one to a resource the files create is resolved when
 * applied, and shown as such. A reference found in neither is an error now, not a 404 later.
 */
async function resolveReferences(
  client: SeqeraClient,
  work: StepWork,
  entries: readonly Entry[],
  signal: AbortSignal | undefined,
): Promise<void> {
  for (const ref of work.desired.refs) {
    const found = await lookupOptional(client, lookupOf(ref.family), ref.name, signal);
    if (found) {
      setPath(work.desired.fields, ref.field, idOf(FAMILIES[ref.family], found));
      continue;
    }
    const inFiles = entries.some(
      (e) => e.kind === ref.family && e.name === ref.name && e.workspace === work.entry.workspace,
    );
    if (!inFiles) {
      const { entry } = work;
      throw new ConfigurationError(
        `${entry.at}: ${entry.kind} "${entry.name}": ${FAMILIES[ref.family].noun} "${ref.name}" is neither in the files nor in ${entry.workspace ?? "the workspace"}`,
      );
    }
    setPath(work.desired.fields, ref.field, `(${ref.family} "${ref.name}", created by this plan)`);
  }
}

/** The resource as its describe operation (and the family's `reads`) answers it. */
export async function readActual(
  client: SeqeraClient,
  family: Family,
  listed: object,
  id: string,
  signal: AbortSignal | undefined,
): Promise<Record<string, unknown>> {
  const describe = family.operations.describe;
  const actual: Record<string, unknown> = describe
    ? ((await answerFor(client, describe, id, family, signal)) ?? { ...listed })
    : { ...listed };
  for (const [field, operation] of Object.entries(family.file?.reads ?? {})) {
    const answer = (await callOn(client, operation, id, signal))?.[field];
    if (isObject(answer)) {
      // A launch answers its compute environment whole; a request names it by id.
      const computeEnv = answer.computeEnv;
      if (isObject(computeEnv) && answer.computeEnvId === undefined)
        answer.computeEnvId = computeEnv.id;
      actual[field] = answer;
    }
  }
  return actual;
}

/** The describe answer's object for this id (the answer wraps it: `{ computeEnv: {...} }`). */
async function answerFor(
  client: SeqeraClient,
  operation: string,
  id: string,
  family: Family,
  signal: AbortSignal | undefined,
): Promise<Record<string, unknown> | undefined> {
  const answer = await callOn(client, operation, id, signal);
  return Object.values(answer ?? {}).find(
    (value): value is Record<string, unknown> => isObject(value) && idOf(family, value) === id,
  );
}

/** An operation whose one path parameter is the resource's id, untyped: the family names it. */
export async function callOn(
  client: SeqeraClient,
  operation: string,
  id: string,
  signal: AbortSignal | undefined,
): Promise<Record<string, unknown> | undefined> {
  const [method, path] = operation.split(" ") as [string, string];
  const param = /\{(\w+)\}/.exec(path)![1]!;
  const answer = await client.request(method, path, { params: { path: { [param]: id } }, signal });
  return isObject(answer) ? answer : undefined;
}

/**
 * The fields of `desired` (leaf by leaf, those the family compares) that `actual` does not
 * hold; secrets are never compared on an existing resource, and shown redacted on a new one.
 */
function diff(
  family: Family,
  desired: Record<string, unknown>,
  actual: Record<string, unknown>,
  creating: boolean,
): PlanChange[] {
  const changes: PlanChange[] = [];
  const secret = family.file?.secret ?? [];
  const walk = (value: unknown, path: string) => {
    if (isObject(value)) {
      for (const [key, item] of Object.entries(value)) walk(item, path ? `${path}.${key}` : key);
      return;
    }
    const top = topOf(path);
    if (!family.fields.includes(top) || value === undefined || value === null) return;
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
