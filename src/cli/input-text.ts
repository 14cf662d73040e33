/**
 * The files a command reads (--input, --params, -F key=@file), as core/text-file.ts reads them;
 * "-" is standard input.
 */
import { UsageError } from "../errors/cli-errors.js";
import { position, readUtf8File } from "../core/text-file.js";

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

/** "CommaExpected" → "comma expected". */
function words(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}
