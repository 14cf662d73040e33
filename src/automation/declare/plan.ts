/**
 * A plan: what applying the files would do to each resource they name, decided from the
 * resource model alone (families.ts): each entry's resource is found by name through its
 * family's lookup, read by its describe operation, its `fields` compared with the file's, and
 * a difference is an update when the family's update operation changes those fields in place
 * (`updatable`), else a replace, said before anything is done.
 */
import type { SeqeraClient } from "../../client/client.js";
import { listFamily } from "../../client/family-lookup.js";
import { lookupOptional, type Lookup } from "../../client/lookup.js";
import { nameOf } from "../../model/derive.js";
import { ConfigurationError } from "../../errors/configuration-error.js";
import { FAMILIES, type FamilyName } from "../../model/families.js";
import type { Family } from "../../model/family.js";
import { FAMILY_LOOKUPS, find } from "../names.js";
import { MEMBERSHIP_LOOKUPS, workspacePath } from "../membership-lookups.js";
import { checkMembership, teamMemberChanges } from "./membership.js";
import {
  familyKey,
  kindName,
  readEntries,
  type DeclarationSource,
  type Entry,
} from "./documents.js";
import { desiredOf, getPath, setPath, type Desired, type Reference } from "./desired.js";
import { diff, readActual, type PlanChange, type ScopeParams } from "./read.js";

export type PlanAction = "create" | "update" | "replace" | "delete" | "unchanged" | "launch";

/** What the plan does to one resource of the files. */
export interface PlanStep {
  kind: string;
  /** Its name; "organization/name" for a team or workspace. */
  name: string;
  /**
   * The entry's `workspace`, else the client's as it was named ("org/ws", or its id); null for
   * the user's own, and for teams and workspaces.
   */
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
  /** Its scope's path parameters: `{ orgId }` for a team or workspace. */
  scope: ScopeParams;
  /** The existing resource's id (update, replace, delete). */
  id?: string;
}

export const WORK = new WeakMap<PlanStep, StepWork>();
const ORDER = Object.keys(FAMILIES);

/**
 * The files' entries (`entries`, which references may name) and those a plan takes, in its
 * order (`chosen`): bad input (a file, a key, a variable, a target) is a ConfigurationError
 * here, before any request.
 */
export async function entriesToPlan(
  documents: readonly (DeclarationSource | string)[],
  options: Pick<PlanOptions, "env" | "targets" | "delete"> = {},
): Promise<{ entries: Entry[]; chosen: Entry[] }> {
  const entries = await readEntries(documents, options.env ?? process.env);
  const targets = options.targets?.map(familyKey);
  const unknown = (targets ?? []).filter((t) => !(t in FAMILIES));
  if (unknown.length) throw new ConfigurationError(`--targets: unknown kind ${unknown.join(", ")}`);
  const chosen = entries
    .filter((e) => !targets || targets.includes(e.kind))
    .sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind));
  if (options.delete) chosen.reverse();
  return { entries, chosen };
}

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
  const { entries, chosen } = await entriesToPlan(documents, options);
  // Organizations and workspaces the files create: what goes in them is created too, with no
  // lookup there yet (an organization's id is found when applied).
  const newOrganizations = new Set<string>();
  const newWorkspaces = new Set<string>();
  // Resources replaced: what refers to them gets the new id when applied.
  const replaced = new Set<string>();
  const seen = new Map<string, string>();
  const steps: PlanStep[] = [];
  for (const entry of chosen) {
    const family: Family = FAMILIES[entry.kind];
    const name = fullName(entry);
    const key = keyOf(entry.kind, entry.workspace, name);
    const twice = seen.get(key);
    if (twice !== undefined) {
      throw new ConfigurationError(`${entry.at}: ${entry.kind} "${name}" is named at ${twice} too`);
    }
    seen.set(key, entry.at);
    const work: StepWork = { entry, desired: await desiredOf(entry), scope: {} };
    const inNewOrganization =
      entry.organization !== undefined && newOrganizations.has(entry.organization);
    if (entry.organization !== undefined && !inNewOrganization) {
      work.scope = await organizationScope(client, entry.organization, signal);
    }
    const inWorkspace = clientFor(client, entry);
    const workspace =
      family.scope === "workspace"
        ? (entry.workspace ?? (await workspaceAsNamed(client, signal)))
        : null;
    const step = (action: PlanAction, changes: PlanChange[] = [], reason?: string) => {
      const kind = kindName(entry.kind);
      const made: PlanStep = { kind, name, workspace, action, changes, at: entry.at };
      if (reason !== undefined) made.reason = reason;
      WORK.set(made, work);
      steps.push(made);
      if (action === "replace") replaced.add(key);
      if (action !== "create") return;
      if (entry.kind === "organizations") newOrganizations.add(name);
      if (entry.kind === "workspaces") newWorkspaces.add(name);
    };
    const { launch } = work.desired;
    if (launch) {
      // A run is launched each time (nothing to compare); --delete leaves runs alone.
      if (!options.delete) step("launch", [{ field: "pipeline", to: launch.pipeline }]);
      continue;
    }
    const inNewWorkspace = entry.workspace !== undefined && newWorkspaces.has(entry.workspace);
    const found =
      inNewWorkspace || inNewOrganization
        ? undefined
        : await lookupOptional(inWorkspace, lookupOf(entry.kind), name, signal);
    if (found) work.id = lookupOf(entry.kind).id(found);
    // A participant's paths name its workspace and organization by id.
    if (found && family.operations.list.includes("{workspaceId}")) {
      const { orgId, workspaceId } = await workspacePath(inWorkspace, signal);
      work.scope = { orgId, workspaceId };
    }
    if (options.delete) {
      if (found) step("delete");
      continue;
    }
    await resolveReferences(inWorkspace, work, entries, inNewWorkspace, replaced, signal);
    await checkMembership(inWorkspace, work, entries, signal);
    const members = await teamMemberChanges(inWorkspace, work, signal);
    if (!found) {
      step("create", [...diff(family, work.desired.fields, {}, true), ...members]);
      continue;
    }
    const actual = await readActual(inWorkspace, family, found, work.scope, work.id!, signal);
    const changes = [...diff(family, work.desired.fields, actual, false), ...members];
    if (changes.length === 0) step("unchanged");
    else if (entry.onExists === "ignore") step("unchanged", [], "on_exists: ignore");
    else if (entry.onExists === "fail") {
      const fields = changes.map((c) => c.field).join(", ");
      throw new ConfigurationError(
        `${entry.at}: ${entry.kind} "${name}" exists and differs (${fields}): set on_exists: update to change it, or ignore`,
      );
    } else {
      const fixed = changes.filter((c) => !(family.updatable ?? []).includes(topOf(c.field)));
      const update = family.operations.update;
      if (fixed.length === 0 && update) step("update", changes);
      else {
        const why = update
          ? `${fixed.map((c) => c.field).join(", ")} cannot change in place (${update} does not change ${[...new Set(fixed.map((c) => topOf(c.field)))].join(", ")})`
          : (family.file.replaced ?? `the API has no update operation for a ${family.noun}`);
        step("replace", changes, why);
      }
    }
  }
  return { steps, pending: steps.filter((s) => s.action !== "unchanged").length };
}

/** The path parameters of an organization's teams and workspaces. */
export async function organizationScope(
  client: SeqeraClient,
  organization: string,
  signal: AbortSignal | undefined,
): Promise<ScopeParams> {
  return { orgId: (await find.organization(client, organization, { signal })).orgId };
}

/**
 * Its name as its family's lookup takes it: a workspace's or team's with its organization's
 * ("acme/genomics"), a resource label's with its value ("team=genomics").
 */
export function fullName(entry: Entry): string {
  const identity = (FAMILIES[entry.kind] as Family).file.identity?.key;
  const part = identity === undefined ? undefined : entry.values[identity];
  if (part !== undefined) return `${entry.name}=${String(part)}`;
  return entry.organization === undefined ? entry.name : `${entry.organization}/${entry.name}`;
}

/** The client's workspace as the user named it ("acme/genomics"), else its id; null: personal. */
async function workspaceAsNamed(
  client: SeqeraClient,
  signal?: AbortSignal,
): Promise<string | null> {
  const named = client.config.workspaceId;
  if (typeof named === "string" && named.includes("/")) return named;
  return (await client.resolveWorkspaceId({ signal })) ?? null;
}

export function lookupOf(kind: FamilyName): Lookup<object> {
  const found = FAMILY_LOOKUPS[kind] ?? MEMBERSHIP_LOOKUPS[kind];
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

/** One resource of the files: its kind, workspace (as written) and name. */
function keyOf(kind: string, workspace: string | undefined, name: string): string {
  return JSON.stringify([kind, workspace ?? "", name]);
}

/**
 * Each reference's id, from the service; one to a resource the files create or replace is
 * resolved when applied, and shown as such. A reference found in neither is an error now, not a 404 later.
 */
async function resolveReferences(
  client: SeqeraClient,
  work: StepWork,
  entries: readonly Entry[],
  inNewWorkspace: boolean,
  replaced: ReadonlySet<string>,
  signal: AbortSignal | undefined,
): Promise<void> {
  for (const ref of work.desired.refs) {
    // Named by another field (a data link by its URI): by its name from here on.
    if (ref.by !== undefined) {
      const found = await nameBy(client, ref, ref.by, entries, work.entry, inNewWorkspace, signal);
      ref.name = found ?? ref.name;
    }
    if (replaced.has(keyOf(ref.family, work.entry.workspace, ref.name))) {
      setPath(
        work.desired.fields,
        ref.field,
        `(${ref.family} "${ref.name}", replaced by this plan)`,
      );
      continue;
    }
    const found = inNewWorkspace
      ? undefined
      : await lookupOptional(client, lookupOf(ref.family), ref.name, signal);
    if (found) {
      setPath(work.desired.fields, ref.field, lookupOf(ref.family).id(found));
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

/**
 * The name of the resource whose field `by` is the reference's text (a data link whose
 * `resourceRef` is the URI, as tw's DataLinkService finds it): in the files, else in the service.
 */
async function nameBy(
  client: SeqeraClient,
  ref: Reference,
  by: string,
  entries: readonly Entry[],
  from: Entry,
  inNewWorkspace: boolean,
  signal: AbortSignal | undefined,
): Promise<string | undefined> {
  const family: Family = FAMILIES[ref.family];
  const keys = family.file.keys;
  const key = Object.keys(keys).find((k) => keys[k] === by);
  const inFiles = entries.find(
    (e) =>
      e.kind === ref.family &&
      e.workspace === from.workspace &&
      key !== undefined &&
      e.values[key] === ref.name,
  );
  if (inFiles) return inFiles.name;
  if (inNewWorkspace) return undefined;
  const items = await listFamily<object>(client, family, {}, {}, signal);
  const found = items.find((item) => getPath(item, by) === ref.name);
  return found && nameOf(family, found);
}
