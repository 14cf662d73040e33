/**
 * Pipeline params: a saved launch's `paramsText` (JSON or YAML) with the caller's values
 * deep-merged over it, written back in the format it came in. YAML keeps its comments and the
 * layout of what was not changed; the yaml package is loaded only for YAML text.
 */

export type Params = Record<string, unknown>;

/**
 * Deep-merges `params` over `text`: nested objects merge key by key, anything else (arrays
 * included) replaces; undefined values are skipped. Empty text gives JSON.
 */
export async function mergeParamsText(text: string | undefined, params: Params): Promise<string> {
  const source = text ?? "";
  if (source.trim() === "") return JSON.stringify(merge({}, params), null, 2);
  const json = parseJsonObject(source);
  if (json !== undefined) return JSON.stringify(merge(json, params), null, jsonIndent(source));
  return mergeYaml(source, params);
}

/** Parses params text, JSON or YAML, to an object (empty text is `{}`). */
export async function parseParamsText(text: string | undefined): Promise<Params> {
  const source = text ?? "";
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

/** The indentation the text uses, so that a round trip changes only the merged values. */
function jsonIndent(text: string): string | undefined {
  return /^([ \t]+)"/m.exec(text)?.[1];
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

async function mergeYaml(text: string, params: Params): Promise<string> {
  const { parseDocument, isMap } = await import("yaml");
  const doc = parseDocument(text);
  if (doc.errors.length > 0) {
    throw new SyntaxError(`The saved params are neither JSON nor YAML: ${doc.errors[0]!.message}`);
  }
  if (doc.contents !== null && !isMap(doc.contents)) throw notAnObject();
  const into = (path: string[], over: Params) => {
    for (const [key, value] of Object.entries(over)) {
      if (value === undefined) continue;
      const at = [...path, key];
      if (isPlainObject(value) && isMap(doc.getIn(at, true))) into(at, value);
      else doc.setIn(at, value);
    }
  };
  into([], params);
  return doc.toString();
}

function isPlainObject(value: unknown): value is Params {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function notAnObject(): TypeError {
  return new TypeError("The saved params are not an object of named params");
}
