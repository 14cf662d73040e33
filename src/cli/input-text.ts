/**
 * The files a command reads (--input, --params, -F key=@file): UTF-8 only, and errors that
 * say where and what without quoting the text, which may hold a secret.
 */
import { readFile } from "node:fs/promises";
import { UsageError } from "./cli-errors.js";

/** The file's bytes as UTF-8 text (a BOM dropped); another encoding is refused, not mangled. */
export async function readUtf8File(label: string, file: string): Promise<string> {
  const bytes = await readFile(file).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`${label}: cannot read the file (${error.code ?? error.message}).`);
  });
  return decodeUtf8(label, bytes);
}

export function decodeUtf8(label: string, bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    const lossy = new TextDecoder("utf-8").decode(bytes);
    const at = position(lossy, lossy.indexOf("\uFFFD"));
    throw new UsageError(
      `${label} is not UTF-8 text (${at}): save it as UTF-8, e.g. iconv -f latin1 -t utf-8.`,
    );
  }
}

/** JSON text; a syntax error names its line and column and what was expected. */
export async function parseJsonText(label: string, text: string): Promise<unknown> {
  try {
    return JSON.parse(text);
  } catch {
    // V8's message quotes the text around the error: locate it with a parser that does not.
    const { parse, printParseErrorCode } = await import("jsonc-parser");
    const errors: import("jsonc-parser").ParseError[] = [];
    parse(text, errors, { disallowComments: true, allowTrailingComma: false });
    const first = errors[0];
    const what = first ? words(printParseErrorCode(first.error)) : "not JSON";
    const at = first ? `${position(text, first.offset)}: ` : "";
    throw new UsageError(`${label} is not JSON (${at}${what}).`);
  }
}

/** YAML (or JSON, which YAML reads); an error or warning names its line and column. */
export async function parseYamlText(label: string, text: string): Promise<unknown> {
  const { parseDocument } = await import("yaml");
  // Silent: yaml would print its warnings with the offending line quoted.
  const doc = parseDocument(text, { logLevel: "silent" });
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem) {
    const [line, col] = problem.linePos ? [problem.linePos[0].line, problem.linePos[0].col] : [];
    const at = line === undefined ? "" : `line ${line}, column ${col}: `;
    throw new UsageError(`${label} is neither JSON nor YAML (${at}${describe(problem.message)}).`);
  }
  try {
    return doc.toJS();
  } catch (error) {
    throw new UsageError(`${label} cannot be read (${describe((error as Error).message)}).`);
  }
}

/** "line 3, column 7" of a string offset. */
function position(text: string, offset: number): string {
  const before = text.slice(0, Math.max(0, offset));
  const line = before.split("\n").length;
  return `line ${line}, column ${offset - before.lastIndexOf("\n")}`;
}

/** yaml's message without the quoted source: the text before its position and any ": detail". */
function describe(message: string): string {
  return message.split(" at line ")[0]!.split(": ")[0]!.trim();
}

/** "CommaExpected" → "comma expected". */
function words(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}
