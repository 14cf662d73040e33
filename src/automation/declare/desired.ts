/**
 * What an entry asks for, as the fields of its family's create request: each key set where its
 * family's `file.keys` says, files read, references to other resources kept by name until the
 * plan resolves them.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { readUtf8File } from "../../core/text-file.js";
import { ConfigurationError } from "../../errors/configuration-error.js";
import { FAMILIES, type FamilyName } from "../../model/families.js";
import type { Family, FileShape } from "../../model/family.js";
import { mergeParamsText, type Params } from "../params.js";
import { toComputeEnvRequest, toPipelineRequest } from "../convert.js";
import { launchFlags, type Entry } from "./documents.js";

/** A reference by name to a resource of the same workspace, whose id goes in `field`. */
export interface Reference {
  family: FamilyName;
  name: string;
  field: string;
  /** The field of the resource `name` gives, when not its name (a data link's resourceRef). */
  by?: string;
}

export interface Desired {
  /** The create request's fields, as families.ts's `fields` name them. */
  fields: Record<string, unknown>;
  refs: Reference[];
  /** The create operation's query parameters (`?` keys: a studio's `autoStart`). */
  query?: Record<string, unknown>;
  /** `wait: AVAILABLE`: the status to wait for after a create. */
  wait?: string;
  /** A dataset's file to upload, and whether its first row is a header. */
  upload?: { file: string; header: boolean };
  /** A team's members (user names or e-mails), added by the membership helper. */
  members?: string[];
  /** A `launch` entry: the pipeline (a Launchpad name or a URL) and the launch's settings. */
  launch?: { pipeline: string; settings: Record<string, unknown> };
}

/** The entry's fields, files read (relative to the entry's file). */
/** Where credentials' key file goes, by provider: Google's service account JSON, an SSH key. */
const KEY_FILE_FIELDS: Readonly<Record<string, string>> = {
  google: "keys.data",
  ssh: "keys.privateKey",
};

export async function desiredOf(entry: Entry): Promise<Desired> {
  const family: Family = FAMILIES[entry.kind];
  const shape = family.file;
  // A file named in the YAML: beside it, else from the working directory, as tw reads the
  // paths seqerakit hands it (its own files name them from where it runs).
  const path = (file: unknown) => {
    const beside = resolve(entry.dir, String(file));
    return existsSync(beside) ? beside : resolve(String(file));
  };
  const refuse = (message: string): never => {
    throw new ConfigurationError(`${entry.at}: ${entry.kind} "${entry.name}": ${message}`);
  };
  const desired: Desired = { fields: {}, refs: [] };
  const { values } = entry;
  const missing = (shape.required ?? []).filter((key) => values[key] === undefined);
  if (missing.length) refuse(`${missing.join(", ")} required`);
  // Keys of one field are tw's exclusive options (--mount-data, --mount-data-ids): one only.
  const given = Object.keys(values).filter((key) => fieldOf(shape, key) !== undefined);
  for (const [index, key] of given.entries()) {
    const twin = given.slice(index + 1).find((k) => fieldOf(shape, k) === fieldOf(shape, key));
    if (twin) refuse(`${key} and ${twin} both set ${fieldOf(shape, key)}: give one of them`);
  }
  // An exported JSON (tw compute-envs export, tw pipelines export) first; the keys go on top.
  if (values["file-path"] !== undefined && shape.keys["file-path"] === "@body-file") {
    desired.fields = await exportedBody(entry.kind, path(values["file-path"]), refuse);
  }
  desired.fields.name = entry.name;
  let params: Params | undefined;
  let paramsFile: string | undefined;
  let paramsFilePath: string | undefined;
  const settings: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (key === "labels" && shape.labels) {
      desired.fields.labels = labelTexts(value, shape.labels.resource === true, refuse);
      continue;
    }
    const ref = shape.refs?.[key];
    if (ref) {
      // A list's names each resolved into their place in the field's list.
      const names = ref.list ? listOf(value).map(String) : [String(value)];
      if (ref.list) setPath(desired.fields, ref.field, []);
      desired.refs.push(
        ...names.map((name, index) => ({
          family: ref.family as FamilyName,
          name,
          field: ref.list ? `${ref.field}.${index}` : ref.field,
          ...(ref.by !== undefined && { by: ref.by }),
        })),
      );
      continue;
    }
    const target = shape.keys[key];
    if (target === undefined) {
      // A launch setting, by its flag: files read, lists split, as `seqera-api launch` takes them.
      const [setting, flag] = launchFlags().get(key)!;
      const label = `${entry.at}: ${key} ${String(value)}`;
      const text = flag.file ? await readUtf8File(label, path(value)) : undefined;
      settings[setting] = text ?? (flag.list ? listOf(value) : value);
    } else if (target === "@pipeline") settings.pipeline = String(value);
    else if (target === "@type") {
      // seqerakit also writes the mode with the platform: "aws-batch forge".
      const [platform, mode] = String(value).split(/\s+/);
      setPath(desired.fields, "platform", platform);
      if (mode === "forge") setPath(desired.fields, "config.forge", {});
    } else if (target === "@config-mode") {
      if (value === "forge") setPath(desired.fields, "config.forge", {});
    } else if (target === "@wait") desired.wait = String(value).toUpperCase();
    else if (target === "@params") {
      if (value === null || typeof value !== "object") refuse("params is a mapping of params");
      params = value as Params;
    } else if (target === "@params-file") {
      paramsFilePath = path(value);
      paramsFile = await readUtf8File(`${entry.at}: params-file ${String(value)}`, paramsFilePath);
    } else if (target === "@upload") desired.upload = { file: path(value), header: false };
    else if (target === "@header")
      desired.upload = { file: "", ...desired.upload, header: value === true };
    else if (target === "@members") desired.members = listOf(value).map(String);
    else if (target === "@key") {
      // tw's --key names a file; what it holds depends on the provider.
      const field =
        KEY_FILE_FIELDS[String(values.type)] ??
        refuse(`key is a file of google or ssh credentials, not ${String(values.type)}`);
      const label = `${entry.at}: ${key} ${String(value)}`;
      setPath(desired.fields, field, await readUtf8File(label, path(value)));
    } else if (target === "@body-file" || target === "@name") continue;
    else if (target.startsWith("<")) {
      const label = `${entry.at}: ${key} ${String(value)}`;
      setPath(desired.fields, target.slice(1), await readUtf8File(label, path(value)));
    } else if (target.startsWith("!")) setPath(desired.fields, target.slice(1), value !== true);
    else if (target.startsWith("?")) desired.query = { ...desired.query, [target.slice(1)]: value };
    else if (target.endsWith("[]")) setPath(desired.fields, target.slice(0, -2), listOf(value));
    else setPath(desired.fields, target, value);
  }
  if (shape.identity && values[shape.identity.key] !== undefined) {
    for (const [field, value] of Object.entries(shape.identity.sets ?? {})) {
      setPath(desired.fields, field, value);
    }
  }
  for (const [field, value] of Object.entries(shape.defaults ?? {})) {
    if (getPath(desired.fields, field) === undefined) setPath(desired.fields, field, value);
  }
  if (shape.launchSettings) {
    const { pipeline, ...rest } = settings;
    if (typeof pipeline !== "string") refuse("a launch needs the pipeline (a name or a URL)");
    // launchPipeline reads the file and merges `params` over it.
    if (paramsFilePath !== undefined) rest.paramsFile = paramsFilePath;
    if (params !== undefined) rest.params = params;
    desired.launch = { pipeline: pipeline as string, settings: { ...rest, runName: entry.name } };
  } else if (params !== undefined || paramsFile !== undefined) {
    setPath(desired.fields, "launch.paramsText", await mergeParamsText(paramsFile, params ?? {}));
  }
  if (desired.upload && desired.upload.file === "") refuse("header needs file-path");
  // The service tells a platform's configuration, and a provider's keys, by a discriminator.
  const tag = desired.fields.platform ?? desired.fields.provider;
  for (const part of ["config", "keys"]) {
    const value = desired.fields[part];
    if (isObject(value) && tag !== undefined) value.discriminator ??= tag;
  }
  return desired;
}

/** A JSON exported by tw, as the create request's fields. */
async function exportedBody(
  kind: FamilyName,
  file: string,
  refuse: (message: string) => never,
): Promise<Record<string, unknown>> {
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(await readUtf8File(`file-path ${file}`, file)) as Record<string, unknown>;
  } catch (error) {
    return refuse(`file-path ${file}: ${(error as Error).message}`);
  }
  if (kind === "pipelines") {
    return { ...toPipelineRequest(json, (json.launch ?? {}) as never) };
  }
  // tw compute-envs export writes the configuration alone, tagged with its platform.
  const computeEnv =
    "config" in json ? json : { platform: json.discriminator, config: json, name: "(file)" };
  return { ...toComputeEnvRequest(computeEnv as never).computeEnv };
}

/** The request field a key sets itself (not an `@` key, read by the declarative layer). */
function fieldOf(shape: FileShape, key: string): string | undefined {
  const ref = shape.refs?.[key];
  if (ref) return ref.field;
  const target = shape.keys[key];
  return target === undefined || target.startsWith("@")
    ? undefined
    : target.replace(/^[<!?]|\[\]$/g, "");
}

/**
 * The labels of a `labels` key, checked as tw's Label converters check them (one `=` at most,
 * neither side blank; a resource label's value required where `resource`), sorted: the order
 * the plan compares them in, and the one the answer's are read in.
 */
function labelTexts(
  value: unknown,
  resource: boolean,
  refuse: (message: string) => never,
): string[] {
  const texts = listOf(value).map(String);
  for (const text of texts) {
    const [name, labelValue, extra] = text.split("=").map((part) => part.trim());
    if (extra !== undefined || !name || labelValue === "" || (resource && !labelValue)) {
      refuse(
        `labels: ${JSON.stringify(text)} is not ${resource ? "a resource label (name=value)" : 'a label ("name" or "name=value")'}`,
      );
    }
  }
  return [...new Set(texts)].sort();
}

function listOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  return String(value)
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
}

/** Sets `a.b.c` in the object, making the objects on the way. */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split(".");
  let node = target;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    node = (node[part] = next !== null && typeof next === "object" ? next : {}) as Record<
      string,
      unknown
    >;
  }
  const last = parts.at(-1)!;
  const existing = node[last];
  node[last] = isObject(existing) && isObject(value) ? { ...existing, ...value } : value;
}

/** The value at `a.b.c` (`a.0.b`: an item of a list), undefined when absent. */
export function getPath(source: unknown, path: string): unknown {
  let node = source;
  for (const part of path.split(".")) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
