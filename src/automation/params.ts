/**
 * Pipeline params: a saved launch's `paramsText` (JSON or YAML) with the caller's values
 * deep-merged over it, as edits of the text: what the merge does not change stays byte for
 * byte as it was (numbers such as `1.0` or 20-digit ids, comments, layout), which a parse and
 * re-serialization would not keep. The yaml package, which finds where each value sits in
 * either format (JSON is YAML's flow style), is loaded only when there is text to merge into.
 */
import { ConfigurationError } from "../errors/configuration-error.js";
import { readUtf8File } from "../core/text-file.js";

import type { YAMLMap } from "yaml";

export type Params = Record<string, unknown>;

/** The saved params (a launch's `paramsText`), as errors name them. */
const SAVED = "The saved params";

/**
 * Deep-merges `params` over `text`: nested objects merge key by key, anything else (arrays
 * included) replaces; undefined values are skipped. Empty text gives JSON.
 */
export async function mergeParamsText(text: string | undefined, params: Params): Promise<string> {
  const source = paramsSource(text);
  if (source.trim() === "") return JSON.stringify(merge({}, params), null, 2);
  return mergeIntoText(source, params, parseJsonObject(source, SAVED) !== undefined);
}

function paramsSource(text: unknown): string {
  if (text == null) return "";
  if (typeof text === "string") return text;
  throw new ConfigurationError(
    `The saved params (paramsText) must be JSON or YAML text, got ${Array.isArray(text) ? "an array" : typeof text}.`,
  );
}

/**
 * Params text, JSON or YAML, as an object (empty text is `{}`); `label` names the text in errors
 * (ConfigurationError), which say where and what without quoting it: params may hold a secret.
 */
export async function parseParamsText(text: string, label = "The params"): Promise<Params> {
  if (text.trim() === "") return {};
  const json = parseJsonObject(text, label);
  if (json !== undefined) return json;
  const { parseDocument } = await import("yaml");
  // Silent: yaml would print its warnings with the offending line quoted.
  const doc = parseDocument(text, { logLevel: "silent" });
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem) {
    const [line, col] = problem.linePos ? [problem.linePos[0].line, problem.linePos[0].col] : [];
    const at = line === undefined ? "" : `line ${line}, column ${col}: `;
    throw new ConfigurationError(
      `${label} is neither JSON nor YAML (${at}${describe(problem.message)}).`,
    );
  }
  let value: unknown;
  try {
    value = doc.toJS();
  } catch (error) {
    throw new ConfigurationError(
      `${label} cannot be read (${describe((error as Error).message)}).`,
    );
  }
  if (!isPlainObject(value)) throw notAnObject(label);
  return value;
}

/** yaml's message without the quoted source: the text before its position and any ": detail". */
function describe(message: string): string {
  return message.split(" at line ")[0]!.split(": ")[0]!.trim();
}

/**
 * A launch's params: the file's (`paramsFile`, read as core/text-file.ts reads), then `params`
 * (an object, or JSON or YAML text) deep-merged over them; undefined when neither is given.
 */
export async function launchParams(
  settings: { params?: Params | string; paramsFile?: string },
  signal: AbortSignal | undefined,
): Promise<Params | undefined> {
  const { params, paramsFile } = settings;
  if (params === undefined && paramsFile === undefined) return undefined;
  const fromFile =
    paramsFile === undefined
      ? {}
      : await parseParamsText(
          await readUtf8File(`paramsFile ${paramsFile}`, paramsFile, signal),
          `paramsFile ${paramsFile}`,
        );
  const given = typeof params === "string" ? await parseParamsText(params, "params") : params;
  return given === undefined ? fromFile : merge(fromFile, given);
}

function parseJsonObject(text: string, label: string): Params | undefined {
  if (!text.trimStart().startsWith("{")) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined; // a YAML flow mapping also starts with "{"
  }
  if (!isPlainObject(value)) throw notAnObject(label);
  return value;
}

/** `over` deep-merged over `base`, as mergeParamsText merges: objects key by key, the rest replaced. */
export function merge(base: Params, over: Params): Params {
  const out: Params = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) continue;
    const current = Object.hasOwn(base, key) ? base[key] : undefined;
    const merged = isPlainObject(current) && isPlainObject(value) ? merge(current, value) : value;
    // defineProperty: a "__proto__" key is data here, not the object's prototype.
    Object.defineProperty(out, key, {
      value: merged,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

interface Edit {
  from: number;
  to: number;
  text: string;
}

/**
 * Each merged value replaces its old value's text; each new key is inserted after the last
 * entry of its object, laid out as the entries before it (separator, indentation, `:` spacing).
 * Values are written in the document's format, on one line.
 */
async function mergeIntoText(text: string, params: Params, json: boolean): Promise<string> {
  const { parseDocument, isMap, isScalar, stringify } = await import("yaml");
  // uniqueKeys off: JSON.parse takes a repeated key's last value, and so does the merge below.
  const doc = parseDocument(text, { uniqueKeys: false });
  if (doc.errors.length > 0) {
    throw new ConfigurationError(
      `The saved params are neither JSON nor YAML: ${doc.errors[0]!.message}`,
    );
  }
  if (doc.contents !== null && !isMap(doc.contents)) throw notAnObject(SAVED);
  type Map = YAMLMap<unknown, unknown>;
  type Range = [number, number, number];
  const rangeOf = (node: unknown) => (node as { range?: Range } | null)?.range;
  const keyText = (key: string) =>
    json || !/^[A-Za-z_][\w.-]*$/.test(key) ? JSON.stringify(key) : key;
  // A YAML document's values in YAML's one-line forms (GRCm39, { cpus: 8 }) where there is one.
  const valueText = (value: unknown) => {
    if (json) return JSON.stringify(value);
    const yaml = stringify(value, { collectionStyle: "flow", lineWidth: 0 }).trimEnd();
    return yaml.includes("\n") ? JSON.stringify(value) : yaml;
  };
  const edits: Edit[] = [];
  const lastPair = (map: Map | null, key: string) => {
    const items = map?.items ?? [];
    for (let i = items.length - 1; i >= 0; i--) {
      const { key: name } = items[i]!;
      if (isScalar(name) && String(name.value) === key) return items[i];
    }
    return undefined;
  };

  const into = (map: Map | null, over: Params) => {
    const added: [string, unknown][] = [];
    for (const [key, value] of Object.entries(over)) {
      if (value === undefined) continue;
      const pair = lastPair(map, key);
      if (pair === undefined) added.push([key, value]);
      else if (isPlainObject(value) && isMap(pair.value)) into(pair.value as Map, value);
      else {
        const [from, end] = rangeOf(pair.value) ?? [rangeOf(pair.key)![1], rangeOf(pair.key)![1]];
        const to = from + text.slice(from, end).trimEnd().length;
        const space = text[from - 1] === ":" ? " " : "";
        edits.push({ from, to, text: space + valueText(value) });
      }
    }
    if (added.length > 0) edits.push(insertion(map, added));
  };

  const insertion = (map: Map | null, added: [string, unknown][]): Edit => {
    const items = map?.items ?? [];
    const first = items[0];
    const last = items.at(-1);
    if (map?.flow) {
      const [open] = rangeOf(map)!;
      if (first === undefined || last === undefined) {
        const entries = added.map(([k, v]) => `${keyText(k)}: ${valueText(v)}`);
        return { from: open + 1, to: open + 1, text: entries.join(", ") };
      }
      // The separator after a comma, and the spacing around ":", as the object's own.
      const before =
        items.length > 1 ? rangeOf(items.at(-2)!.value ?? items.at(-2)!.key)![1] : open + 1;
      const between = text.slice(before, rangeOf(last.key)![0]);
      const separator = between.slice(between.indexOf(",") + 1);
      const colon = first.value
        ? text.slice(rangeOf(first.key)![1], rangeOf(first.value)![0])
        : ": ";
      const end = rangeOf(last.value ?? last.key)![1];
      const entries = added.map(([k, v]) => `,${separator}${keyText(k)}${colon}${valueText(v)}`);
      return { from: end, to: end, text: entries.join("") };
    }
    // A block mapping (or none): new lines after the last entry's, at its indentation.
    const start = first ? rangeOf(first.key)![0] : 0;
    const indent = " ".repeat(start - (text.lastIndexOf("\n", start - 1) + 1));
    const end = last ? rangeOf(last.value ?? last.key)![1] : text.length;
    const lineEnd = text[end - 1] === "\n" ? end - 1 : text.indexOf("\n", end);
    const at = lineEnd < 0 ? text.length : lineEnd + 1;
    const lines = added.map(([k, v]) => `${indent}${keyText(k)}: ${valueText(v)}\n`);
    return { from: at, to: at, text: (lineEnd < 0 ? "\n" : "") + lines.join("") };
  };

  into(doc.contents as Map | null, params);
  let out = text;
  // From the end, so each edit's offsets still hold; at one offset, a nested object's new keys
  // (pushed first) must end up before its parent's.
  const order = edits.map((edit, index) => ({ edit, index }));
  order.sort((a, b) => b.edit.from - a.edit.from || b.index - a.index);
  for (const { edit } of order) {
    out = out.slice(0, edit.from) + edit.text + out.slice(edit.to);
  }
  return out;
}

function isPlainObject(value: unknown): value is Params {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function notAnObject(label: string): ConfigurationError {
  return new ConfigurationError(`${label} must hold an object of params (name: value).`);
}
