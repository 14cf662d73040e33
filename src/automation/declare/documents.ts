/**
 * Reading files in seqerakit's format: YAML documents (several per file, `---`) whose top-level
 * keys are kinds, each a list of entries keyed by tw's option names. Everything is checked
 * before any request: an unknown kind or key is refused with the near names and its file:line,
 * and a `$VAR` or `${VAR}` the environment does not set is refused by name (never sent empty).
 */
import { dirname } from "node:path";
import type { Document, Node, Pair } from "yaml";
import { nearNames } from "../../core/near-names.js";
import { ConfigurationError } from "../../errors/configuration-error.js";
import { FAMILIES, type FamilyName } from "../../model/families.js";
import type { LaunchSettings } from "../launch.js";
import { launchSettingRows, type LaunchFlag } from "../launch-settings.js";
import type { Family } from "../../model/family.js";

/** A file's text and where it came from ("-" for standard input). */
export interface DeclarationSource {
  text: string;
  /** Its path: names it in errors, and relative paths in it (`file-path`) are read from its folder. */
  file?: string;
}

export type OnExists = "fail" | "ignore" | "overwrite" | "update";

/** One entry of a file: a resource of a kind, its keys with the variables filled in. */
export interface Entry {
  kind: FamilyName;
  name: string;
  /** The `workspace` key: "org/workspace" or an id; undefined is the client's workspace. */
  workspace: string | undefined;
  /** The `organization` key of a team or workspace. */
  organization?: string;
  onExists: OnExists;
  /** Its other keys, as written (variables filled in). */
  values: Record<string, unknown>;
  /** "file:line" of the entry. */
  at: string;
  /** The folder relative paths are read from. */
  dir: string;
}

/** The keys every kind takes besides its own (families.ts's `file.keys`) and its scope's. */
const COMMON_KEYS = ["name", "on_exists", "overwrite"];
const ON_EXISTS: readonly OnExists[] = ["fail", "ignore", "overwrite", "update"];
/** seqerakit's kinds the model knows by another key. */
const KIND_ALIASES: Readonly<Record<string, FamilyName>> = { launch: "runs" };

/** The model's key of a kind as seqerakit names it ("launch" is "runs"). */
export function familyKey(kind: string): string {
  return KIND_ALIASES[kind] ?? kind;
}

/** A family's kind as seqerakit names it. */
export function kindName(key: FamilyName): string {
  return Object.keys(KIND_ALIASES).find((kind) => KIND_ALIASES[kind] === key) ?? key;
}

/** The launch settings by their flags' names and aliases (tw's): what a `launch` entry takes. */
export function launchFlags(): Map<string, [keyof LaunchSettings, LaunchFlag]> {
  return new Map(
    launchSettingRows().flatMap(([key, { flag }]) =>
      flag ? [flag.name, ...(flag.aliases ?? [])].map((name) => [name, [key, flag]] as const) : [],
    ),
  );
}

/** The key naming an entry: `name`, or another (seqerakit names a member by `user`). */
function nameKeyOf(family: Family): string {
  const keys = family.file.keys;
  return Object.keys(keys).find((key) => keys[key] === "@name") ?? "name";
}

/** The keys an entry of this family may have. */
export function keysOf(family: Family): string[] {
  const scope = { user: [], organization: ["organization"], workspace: ["workspace"] }[
    family.scope
  ];
  return [
    ...COMMON_KEYS.filter((key) => key !== "name" || nameKeyOf(family) === "name"),
    ...scope,
    ...Object.keys(family.file.keys),
    ...Object.keys(family.file.refs ?? {}),
    ...(family.file.labels ? ["labels"] : []),
    ...(family.file.launchSettings ? launchFlags().keys() : []),
  ];
}

/** The entries of the sources, in the order written; ConfigurationError at the first bad one. */
export async function readEntries(
  sources: readonly (DeclarationSource | string)[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<Entry[]> {
  const { parseAllDocuments, LineCounter, isMap, isSeq, isScalar } = await import("yaml");
  const entries: Entry[] = [];
  for (const [index, given] of sources.entries()) {
    const source = typeof given === "string" ? { text: given } : given;
    const file = source.file ?? `document ${index + 1}`;
    const dir = source.file === undefined || source.file === "-" ? "." : dirname(source.file);
    const lines = new LineCounter();
    const at = (node: Node | null | undefined) =>
      `${file}:${node?.range ? lines.linePos(node.range[0]).line : 1}`;
    const refuse = (node: Node | null | undefined, message: string): never => {
      throw new ConfigurationError(`${at(node)}: ${message}`, { source: file });
    };
    for (const document of parseAllDocuments(source.text, { lineCounter: lines }) as Document[]) {
      const error = document.errors[0];
      if (error) {
        const line = lines.linePos(error.pos[0]).line;
        throw new ConfigurationError(`${file}:${line}: ${error.message.split("\n")[0]}`, {
          source: file,
        });
      }
      const top = document.contents;
      if (top == null) continue;
      if (!isMap(top)) refuse(top, "expected kinds (compute-envs:, pipelines:…) at the top");
      for (const pair of (top as { items: Pair[] }).items) {
        const keyNode = pair.key as Node;
        const family = familyOf(String(isScalar(keyNode) ? keyNode.value : ""), (m) =>
          refuse(keyNode, m),
        );
        const list = pair.value as Node | null;
        if (list == null) continue;
        if (!isSeq(list)) refuse(list, `${family.kind}: expected a list of entries (- name: …)`);
        for (const item of (list as { items: Node[] }).items) {
          if (!isMap(item)) refuse(item, `${family.kind}: expected an entry (name: …)`);
          const values: Record<string, unknown> = {};
          const model: Family = FAMILIES[family.kind];
          const known = keysOf(model);
          for (const entryPair of (item as { items: Pair[] }).items) {
            const key = String((entryPair.key as { value?: unknown }).value);
            const unsupported = model.file.unsupported?.[key];
            if (unsupported !== undefined) {
              refuse(
                entryPair.key as Node,
                `${family.kind}: ${key} is not supported yet: ${unsupported}`,
              );
            }
            if (!known.includes(key)) {
              const near = nearNames(key, known);
              const hint = near.length ? ` (did you mean ${near.join(", ")}?)` : "";
              refuse(entryPair.key as Node, `${family.kind} takes no key "${key}"${hint}`);
            }
            // Aliases resolved (`*work-dir`), at most 100 of them: no "billion laughs".
            const node = entryPair.value as Node | null;
            let value: unknown;
            try {
              value = node?.toJS(document, { maxAliasCount: 100 });
            } catch (error) {
              refuse(node, (error as Error).message);
            }
            values[key] = substitute(value, env, (m) => refuse(entryPair.value as Node, m));
          }
          entries.push(entryOf(family.kind, values, at(item), dir, (m) => refuse(item, m)));
        }
      }
    }
  }
  return entries;
}

function familyOf(kind: string, refuse: (message: string) => never): { kind: FamilyName } {
  const key = familyKey(kind);
  if (!(key in FAMILIES)) {
    const kinds = [
      ...Object.keys(FAMILIES).filter((k) => k !== "runs"),
      ...Object.keys(KIND_ALIASES),
    ];
    const near = nearNames(kind, kinds);
    refuse(`unknown kind "${kind}"${near.length ? ` (did you mean ${near.join(", ")}?)` : ""}`);
  }
  return { kind: key as FamilyName };
}

function entryOf(
  kind: FamilyName,
  values: Record<string, unknown>,
  at: string,
  dir: string,
  refuse: (message: string) => never,
): Entry {
  const nameKey = nameKeyOf(FAMILIES[kind]);
  const {
    [nameKey]: name,
    workspace,
    organization,
    on_exists: onExists,
    overwrite,
    ...rest
  } = values;
  if (typeof name !== "string" || name === "") refuse(`${kind}: an entry needs a ${nameKey}`);
  if (FAMILIES[kind].scope === "organization" && typeof organization !== "string") {
    refuse(`${kind} "${name}": organization names the organization it belongs to`);
  }
  if (workspace !== undefined && typeof workspace !== "string") {
    refuse(`${kind} "${name}": workspace is "organization/workspace" or an id`);
  }
  const mode = onExists ?? (overwrite === true ? "overwrite" : "fail");
  if (!ON_EXISTS.includes(mode as OnExists)) {
    refuse(
      `${kind} "${name}": on_exists is one of ${ON_EXISTS.join(", ")}, not ${JSON.stringify(mode)}`,
    );
  }
  return {
    kind,
    name: name as string,
    workspace: workspace === undefined ? undefined : String(workspace),
    ...(organization !== undefined && { organization: String(organization) }),
    onExists: mode as OnExists,
    values: rest,
    at,
    dir,
  };
}

/** `$VAR` and `${VAR}` in every string of the value, from the environment. */
function substitute(
  value: unknown,
  env: Readonly<Record<string, string | undefined>>,
  refuse: (message: string) => never,
): unknown {
  if (typeof value === "string") {
    return value.replace(/\$(?:\{(\w+)\}|(\w+))/g, (_, braced?: string, bare?: string) => {
      const name = (braced ?? bare)!;
      const set = env[name];
      if (set === undefined) refuse(`$${name} is not set in the environment`);
      return set;
    });
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, env, refuse));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, substitute(v, env, refuse)]),
    );
  }
  return value;
}
