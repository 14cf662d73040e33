/**
 * A workspace's resources as a file in seqerakit's format, written from the same description
 * the plan reads (each family's `file.keys`, backwards): applying it to an empty workspace makes
 * a copy a plan finds nothing to change in. Secret values, which the service never answers, are
 * written as `$VARIABLES` to set before applying.
 */
import type { SeqeraClient } from "../../client/client.js";
import { listFamily } from "../../client/family-lookup.js";
import { ConfigurationError } from "../../errors/configuration-error.js";
import { idOf, nameOf } from "../../model/derive.js";
import { FAMILIES, type FamilyName } from "../../model/families.js";
import type { Family } from "../../model/family.js";
import { loadDocument } from "../../openapi/operations-document.js";
import { parseParamsText } from "../params.js";
import { getPath, isObject } from "./desired.js";
import { readActual } from "./read.js";
import { PARTICIPANTS } from "../membership-lookups.js";

export interface ExportOptions {
  /** Only these kinds; default every kind plan and apply support but participants. */
  kinds?: readonly string[];
  signal?: AbortSignal;
}

/** The kinds an export writes (those kept in a workspace: not runs), in order of dependence. */
const EXPORTED = (Object.keys(FAMILIES) as FamilyName[]).filter((kind) => {
  const family: Family = FAMILIES[kind];
  return family.scope === "workspace" && !family.file.launchSettings;
});
/**
 * Written only when asked for: participants name the organization's users and teams, which a
 * copy in another organization does not have.
 */
const ASKED: readonly FamilyName[] = ["participants"];

/** The client's workspace's resources as YAML in seqerakit's format (no `workspace` keys). */
export async function exportResources(
  client: SeqeraClient,
  options: ExportOptions = {},
): Promise<string> {
  const { signal } = options;
  const unknown = (options.kinds ?? []).filter((k) => !EXPORTED.includes(k as FamilyName));
  if (unknown.length) {
    throw new ConfigurationError(
      `Cannot export ${unknown.join(", ")}: the kinds are ${EXPORTED.join(", ")}`,
    );
  }
  const kinds = EXPORTED.filter((k) =>
    options.kinds ? options.kinds.includes(k) : !ASKED.includes(k),
  );
  const out: Record<string, Record<string, unknown>[]> = {};
  for (const kind of kinds) {
    const family: Family = FAMILIES[kind];
    // Participants' list takes the workspace's organization in its path: their lookup finds it.
    const items =
      kind === "participants"
        ? await PARTICIPANTS.list(client, signal, "")
        : await listFamily<object>(client, FAMILIES[kind], {}, {}, signal);
    const entries: Record<string, unknown>[] = [];
    for (const item of items) {
      const actual = await readActual(client, family, item, {}, idOf(family, item), signal);
      entries.push(await entryOf(client, family, actual, signal));
    }
    if (entries.length) out[kind] = entries;
  }
  const { stringify } = await import("yaml");
  return Object.keys(out).length ? stringify(out, { lineWidth: 0 }) : "";
}

/** One resource as a file's entry: each key whose field it holds, references by name. */
async function entryOf(
  client: SeqeraClient,
  family: Family,
  actual: Record<string, unknown>,
  signal: AbortSignal | undefined,
): Promise<Record<string, unknown>> {
  // A team participant has no e-mail: it is named by its team.
  const name = nameOf(family, actual) || String(actual.teamName ?? "");
  const entry: Record<string, unknown> = { name };
  const shape = family.file;
  const secret = shape.secret ?? [];
  const keyNames = secretKeysOf(actual.provider);
  // Two keys of one field (seqerakit's `snapshots` and `fusionSnapshots`): the first is written;
  // a reference's field is written by name (`mount-data`, not `mount-data-ids`), as ids are
  // the workspace's and names go with the file to another.
  const written = new Set(Object.values(shape.refs ?? {}).map((ref) => ref.field));
  for (const [key, target] of Object.entries(shape.keys)) {
    if (target === "@type") entry[key] = actual.platform;
    else if (target === "@config-mode" && isObject(getPath(actual, "config.forge"))) {
      entry[key] = "forge";
    } else if (target === "@params") {
      const text = getPath(actual, "launch.paramsText");
      if (typeof text === "string" && text.trim()) entry[key] = await parseParamsText(text);
    } else if (/^[@<?]/.test(target)) continue;
    else {
      const path = target.replace(/^!|\[\]$/g, "");
      if (written.has(path)) continue;
      const top = path.split(".")[0]!;
      if (secret.includes(top)) {
        // The service never answers it: a variable to set, for the keys of this provider.
        const field = path.split(".").at(-1)!;
        if (top !== "keys" || keyNames.includes(field)) entry[key] = variable(name, key);
        continue;
      }
      const value = getPath(actual, path);
      if (value == null || (Array.isArray(value) && value.length === 0)) continue;
      // A negated flag (no-ebs-auto-scale) is written only when set.
      if (target.startsWith("!")) {
        if (value === false) entry[key] = true;
      } else entry[key] = value;
      written.add(path);
    }
  }
  const refs = Object.entries(shape.refs ?? {});
  for (const [key, ref] of refs) {
    // Two keys of one field (`mount-data`, `mount-data-resource-refs`): the first, by name.
    if (refs.find(([, other]) => other.field === ref.field)?.[0] !== key) continue;
    const value = getPath(actual, ref.field);
    const ids = ref.list && Array.isArray(value) ? value.map(String) : [value];
    if (value == null || ids.length === 0) continue;
    const kind = ref.family as FamilyName;
    const items = await listFamily<object>(client, FAMILIES[kind], {}, {}, signal);
    const names = ids.flatMap((id) => {
      const named = items.find((item) => idOf(FAMILIES[kind], item) === String(id));
      return named ? [nameOf(FAMILIES[kind], named)] : [];
    });
    if (names.length === ids.length) entry[key] = names.join(",");
  }
  const labels = actual.labels;
  if (shape.labels && Array.isArray(labels) && labels.length) {
    // As seqerakit's template writes them, tw's option's text: "label1,label2".
    entry.labels = labels.join(",");
  }
  return entry;
}

/** `$AWS_KEYS_SECRET_KEY` for the key `secret-key` of "aws-keys". */
function variable(name: string, key: string): string {
  return `$${`${name}_${key}`.toUpperCase().replace(/[^A-Z0-9]+/g, "_")}`;
}

/** The fields of a provider's keys, as the schema's SecurityKeys mapping names them. */
function secretKeysOf(provider: unknown): string[] {
  if (typeof provider !== "string") return [];
  const keys = loadDocument().components.schemas.SecurityKeys as {
    discriminator?: { mapping?: Record<string, string> };
  };
  const ref = keys.discriminator?.mapping?.[provider];
  const schema = ref && loadDocument().components.schemas[ref.split("/").pop()!];
  return Object.keys((schema as { properties?: object } | undefined)?.properties ?? {});
}
