/**
 * The files a command reads (--input, --params, -F key=@file): UTF-8 only, and errors that
 * say where and what without quoting the text, which may hold a secret.
 */
import { constants, type Stats } from "node:fs";
import { open } from "node:fs/promises";
import { UsageError } from "../errors/cli-errors.js";

/** The most an input file may hold: far more than any params, config or script. */
export const MAX_INPUT_FILE_BYTES = 16 * 1024 * 1024;

/**
 * The file's bytes as UTF-8 text (a BOM dropped); another encoding is refused, not mangled.
 * Only a regular file is read, up to MAX_INPUT_FILE_BYTES, and `signal` (the command's
 * --timeout) stops the read: a FIFO would block the read forever, a device never end.
 */
export async function readUtf8File(
  label: string,
  file: string,
  signal?: AbortSignal,
): Promise<string> {
  const cannot = (error: NodeJS.ErrnoException) => {
    if (error.name === "AbortError") throw signal?.reason ?? error;
    throw new UsageError(`${label}: cannot read the file (${error.code ?? error.message}).`);
  };
  // Non-blocking, so that opening a FIFO without a writer returns instead of waiting for one.
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK).catch(cannot);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) {
      throw new UsageError(
        `${label} is not a regular file (${kind(stats)}): give the path of a file.`,
      );
    }
    if (stats.size > MAX_INPUT_FILE_BYTES) {
      throw new UsageError(
        `${label} is ${stats.size} bytes, more than the ${MAX_INPUT_FILE_BYTES} (16 MiB) an input file may have.`,
      );
    }
    return decodeUtf8(label, await handle.readFile({ signal }).catch(cannot));
  } finally {
    await handle.close();
  }
}

/**
 * The text a file option names (`--input file`, `--params-file file`): "-" is standard input,
 * as tw reads it; `option` labels errors ("--params-file").
 */
export async function readFileOption(
  option: string,
  file: string,
  input: { stdin(): Promise<string> },
  signal?: AbortSignal,
): Promise<{ label: string; text: string }> {
  const label = `${option} ${file === "-" ? "(stdin)" : file}`;
  const text = file === "-" ? await input.stdin() : await readUtf8File(label, file, signal);
  return { label, text };
}

function kind(stats: Stats): string {
  if (stats.isFIFO()) return "a FIFO";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  if (stats.isSocket()) return "a socket";
  return "a directory";
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
