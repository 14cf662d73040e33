/**
 * Pipeline params: a saved launch's `paramsText` (JSON or YAML) with the caller's values
 * deep-merged over it, written back in the format it came in. Only what was merged changes:
 * the rest keeps its text (a 20-digit integer, `1.0`, `1e400`, which a round trip through
 * numbers would change), its layout and, in YAML, its comments. The parsers (jsonc-parser,
 * yaml) are loaded only when params are merged.
 */
import { ConfigurationError } from "../errors/configuration-error.js";

export type Params = Record<string, unknown>;

/**
 * Deep-merges `params` over `text`: nested objects merge key by key, anything else (arrays
 * included) replaces; undefined values are skipped. Empty text gives JSON.
 */
export async function mergeParamsText(text: string | undefined, params: Params): Promise<string> {
  const source = paramsSource(text);
  if (source.trim() === "") return JSON.stringify(merge({}, params), null, 2);
  if (parseJsonObject(source) !== undefined) return mergeJson(source, params);
  return mergeYaml(source, params);
}

function paramsSource(text: unknown): string {
  if (text == null) return "";
  if (typeof text === "string") return text;
  throw new ConfigurationError(
    `The saved params (paramsText) must be JSON or YAML text, got ${Array.isArray(text) ? "an array" : typeof text}.`,
  );
}

/** Parses params text, JSON or YAML, to an object (empty text is `{}`). */
export async function parseParamsText(text: string | undefined): Promise<Params> {
  const source = paramsSource(text);
  if (source.trim() === "") return {};
  const json = parseJsonObject(source);
  if (json !== undefined) return json;
  const { parse } = await import("yaml");
  const value: unknown = parse(source);
  if (value == null) return {};
  if (!isPlainObject(value)) throw notAnObject();
  return value;
}

function parseJsonObject(text: string): Params | undefined {
  if (!text.trimStart().startsWith("{")) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined; // a YAML flow mapping also starts with "{"
  }
  if (!isPlainObject(value)) throw notAnObject();
  return value;
}

/** The indentation the text uses, for the values merged in. */
function jsonIndent(text: string): string {
  return /^([ \t]+)"/m.exec(text)?.[1] ?? "  ";
}

/**
 * Edits the merged values into the JSON text in place: a value replaced is written where the
 * old one was, a key added goes after its object's last one, spaced as that one is.
 */
async function mergeJson(text: string, params: Params): Promise<string> {
  const { parseTree, findNodeAtLocation } = await import("jsonc-parser");
  const unit = jsonIndent(text);
  let out = text;
  const splice = (at: number, length: number, content: string) => {
    out = out.slice(0, at) + content + out.slice(at + length);
  };
  /** The value as JSON: laid out over lines indented from `gap` when that starts a line. */
  const written = (value: unknown, gap: string) => {
    const newline = gap.lastIndexOf("\n");
    if (newline < 0) return JSON.stringify(value);
    return JSON.stringify(value, null, unit).replace(/\n/g, `\n${gap.slice(newline + 1)}`);
  };
  /** The blanks just before `offset`. */
  const gapBefore = (offset: number) => /[ \t\r\n]*$/.exec(out.slice(0, offset))![0];
  const into = (path: string[], over: Params) => {
    for (const [key, value] of Object.entries(over)) {
      if (value === undefined) continue;
      const at = [...path, key];
      const node = findNodeAtLocation(parseTree(out)!, at);
      if (node && node.type === "object" && isPlainObject(value)) {
        into(at, value);
      } else if (node) {
        splice(node.offset, node.length, written(value, gapBefore(node.parent!.offset)));
      } else {
        const object = findNodeAtLocation(parseTree(out)!, path)!;
        const last = object.children?.at(-1);
        if (last) {
          const [name, current] = last.children!;
          const colon = out.slice(name!.offset + name!.length, current!.offset);
          const gap = gapBefore(last.offset);
          const entry = `${JSON.stringify(key)}${colon}${written(value, gap)}`;
          splice(last.offset + last.length, 0, `,${gap}${entry}`);
        } else {
          splice(object.offset, object.length, JSON.stringify({ [key]: value }));
        }
      }
    }
  };
  into([], params);
  return out;
}

function merge(base: Params, over: Params): Params {
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

/** A number as the saved text wrote it, written back as it was (see SOURCE_NUMBER). */
class SourceNumber {
  constructor(readonly text: string) {}
}

/**
 * Writes a SourceNumber as its text, with no tag: yaml would write 1e400 as `.inf`, 1.0 as
 * `1` and a 20-digit integer rounded.
 */
const SOURCE_NUMBER = {
  tag: "tag:seqera.io,2025:source-number",
  default: true,
  identify: (value: unknown) => value instanceof SourceNumber,
  resolve: (text: string) => text,
  stringify: (item: { value?: unknown }) => (item.value as SourceNumber).text,
};

async function mergeYaml(text: string, params: Params): Promise<string> {
  const { parseDocument, isMap, visit } = await import("yaml");
  const doc = parseDocument(text, { customTags: [SOURCE_NUMBER] });
  if (doc.errors.length > 0) {
    throw new ConfigurationError(
      `The saved params are neither JSON nor YAML: ${doc.errors[0]!.message}`,
    );
  }
  if (doc.contents !== null && !isMap(doc.contents)) throw notAnObject();
  visit(doc, {
    Scalar(_, node) {
      if (node.type === "PLAIN" && node.range && typeof node.value === "number") {
        node.value = new SourceNumber(text.slice(node.range[0], node.range[1]));
      }
    },
  });
  const into = (path: string[], over: Params) => {
    for (const [key, value] of Object.entries(over)) {
      if (value === undefined) continue;
      const at = [...path, key];
      if (isPlainObject(value) && isMap(doc.getIn(at, true))) into(at, value);
      else doc.setIn(at, value);
    }
  };
  into([], params);
  return doc.toString({ flowCollectionPadding: false });
}

function isPlainObject(value: unknown): value is Params {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function notAnObject(): ConfigurationError {
  return new ConfigurationError("The saved params are not an object of named params");
}
