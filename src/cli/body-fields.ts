import { readFile } from "node:fs/promises";
import path from "node:path";
import {
  deref,
  isRecord,
  type OpenApiDocument,
  type SchemaObject,
} from "../openapi/operations-document.js";
import { didYouMean } from "./closest.js";
import { UsageError } from "../errors/cli-errors.js";
import { decodeUtf8 } from "../core/text-file.js";

/** One -F (typed) or -f (raw) argument, in command-line order. */
export interface FieldArg {
  text: string;
  typed: boolean;
}

interface ParsedField {
  /** Object keys from the root, e.g. ["launch", "labelIds"]. */
  keys: string[];
  /** `key[]=v`: append to the array at keys. */
  append: boolean;
  value: string;
  typed: boolean;
  /** As written before "=", for messages. */
  name: string;
}

/** `a.b.c` or `a.b[]`: keys without dots, brackets or "=" (a key with those needs --input). */
const KEY = /^([^.[\]=]+(?:\.[^.[\]=]+)*)(\[\])?$/;
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function parseField(arg: FieldArg): ParsedField {
  const flag = arg.typed ? "-F" : "-f";
  const eq = arg.text.indexOf("=");
  const name = eq < 0 ? arg.text : arg.text.slice(0, eq);
  const key = KEY.exec(name);
  // "__proto__" would reach the object's prototype rather than set a field.
  if (eq < 0 || !key || key[1]!.split(".").includes("__proto__")) {
    throw new UsageError(
      `${flag} ${JSON.stringify(arg.text)}: expected key=value, with key like a, a.b or a[] (use --input for other keys).`,
    );
  }
  return {
    keys: key[1]!.split("."),
    append: key[2] !== undefined,
    value: arg.text.slice(eq + 1),
    typed: arg.typed,
    name,
  };
}

/** Where -F's @file and --input - read from; injected so tests need no real stdin. */
export interface InputSource {
  stdin: () => Promise<string>;
}

/**
 * Sets each field on `body` (a copy of --input's object, or {}), checking keys against the
 * operation's request schema when it lists its properties: a key it does not have is an error
 * naming the nearest ones. `multipart`: @file becomes a File part rather than text.
 */
export async function applyFields(
  body: Record<string, unknown>,
  args: readonly FieldArg[],
  schema: { doc: OpenApiDocument; root: SchemaObject | undefined; multipart: boolean },
  input: InputSource,
): Promise<Record<string, unknown>> {
  const given = new Set<string>();
  for (const field of args.map(parseField)) {
    const joined = field.keys.join(".");
    if (!field.append && given.has(joined))
      throw new UsageError(`Body field ${joined} is given twice.`);
    given.add(joined);
    const leaf = schemaAt(schema.doc, schema.root, field);
    const value = await valueOf(field, leaf, schema.multipart, input);
    setAt(body, field, value);
  }
  return body;
}

async function valueOf(
  field: ParsedField,
  leaf: SchemaObject | undefined,
  multipart: boolean,
  input: InputSource,
): Promise<unknown> {
  const text = field.value;
  if (!field.typed) return text;
  if (text.startsWith("@")) {
    const file = text.slice(1);
    if (file === "-") return input.stdin();
    const content = await readFile(file).catch((error: NodeJS.ErrnoException) => {
      throw new UsageError(
        `-F ${field.name}=@${file}: cannot read the file (${error.code ?? error.message}).`,
      );
    });
    if (multipart) return new File([content], path.basename(file));
    return decodeUtf8(`-F ${field.name}=@${file}`, content);
  }
  // The schema knows better than a literal's look: a string field keeps "1.0" as text.
  if (leaf?.type === "string" && !(text === "null" && leaf.nullable === true)) return text;
  if (text === "true") return true;
  if (text === "false") return false;
  if (text === "null") return null;
  if (JSON_NUMBER.test(text)) {
    const number = Number(text);
    // An id beyond 2^53 would change in a float; keep it as written.
    if (Number.isFinite(number) && (!Number.isInteger(number) || Number.isSafeInteger(number)))
      return number;
  }
  return text;
}

function setAt(body: Record<string, unknown>, field: ParsedField, value: unknown): void {
  let node = body;
  const keys = field.keys;
  for (const [i, key] of keys.entries()) {
    const last = i === keys.length - 1;
    const here = keys.slice(0, i + 1).join(".");
    if (last && !field.append) {
      if (isRecord(node[key]))
        throw new UsageError(`Body field ${here} is an object; set its fields (${here}.name=...).`);
      node[key] = value;
      return;
    }
    if (last) {
      const list = Object.hasOwn(node, key) ? node[key] : [];
      if (!Array.isArray(list))
        throw new UsageError(
          `Body field ${here} is already set, so ${field.name} cannot append to it.`,
        );
      node[key] = [...list, value];
      return;
    }
    const next = Object.hasOwn(node, key) ? node[key] : {};
    if (!isRecord(next))
      throw new UsageError(
        `Body field ${here} is already set to a value, so ${field.name} cannot go in it.`,
      );
    node[key] = next;
    node = next;
  }
}

/**
 * The schema of the field's value, or undefined where the schema does not say (free-form
 * objects, unions): there any key is accepted and the service judges.
 */
function schemaAt(
  doc: OpenApiDocument,
  root: SchemaObject | undefined,
  field: ParsedField,
): SchemaObject | undefined {
  let node = deref(doc, root);
  for (const [i, key] of field.keys.entries()) {
    const properties = node && propertiesOf(doc, node);
    if (!properties) return undefined;
    const child = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (child === undefined) {
      const prefix = field.keys.slice(0, i).join(".");
      const names = Object.keys(properties).map((name) => (prefix ? `${prefix}.${name}` : name));
      const here = [...field.keys.slice(0, i), key].join(".");
      throw new UsageError(`The request body has no field ${here}.${didYouMean(here, names)}`);
    }
    node = deref(doc, child);
  }
  if (field.append) {
    if (node && node.type !== undefined && node.type !== "array") {
      throw new UsageError(`Body field ${field.keys.join(".")} is not an array; drop the [].`);
    }
    return node && deref(doc, node.items);
  }
  return node;
}

/**
 * The properties of an object schema (allOf parts merged); undefined when it is open, a union or
 * a discriminated base.
 */
function propertiesOf(
  doc: OpenApiDocument,
  schema: SchemaObject,
): Record<string, unknown> | undefined {
  // A discriminated base (SecurityKeys) takes its variants' fields too: left to the service.
  if (schema.additionalProperties || schema.oneOf || schema.anyOf || schema.discriminator)
    return undefined;
  let properties: Record<string, unknown> = isRecord(schema.properties) ? schema.properties : {};
  if (Array.isArray(schema.allOf)) {
    for (const part of schema.allOf) {
      const resolved = deref(doc, part);
      const more = resolved && propertiesOf(doc, resolved);
      if (!more) return undefined;
      properties = { ...properties, ...more };
    }
  }
  return Object.keys(properties).length > 0 ? properties : undefined;
}
