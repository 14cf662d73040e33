/**
 * The text files the front ends and the library read (params, config, request bodies): UTF-8
 * only, and errors that say where and what without quoting the text, which may hold a secret.
 */
import { constants, type Stats } from "node:fs";
import { open } from "node:fs/promises";
import { ConfigurationError } from "../errors/configuration-error.js";

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
    throw new ConfigurationError(
      `${label}: cannot read the file (${error.code ?? error.message}).`,
    );
  };
  // Non-blocking, so that opening a FIFO without a writer returns instead of waiting for one.
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK).catch(cannot);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) {
      throw new ConfigurationError(
        `${label} is not a regular file (${kind(stats)}): give the path of a file.`,
      );
    }
    if (stats.size > MAX_INPUT_FILE_BYTES) {
      throw new ConfigurationError(
        `${label} is ${stats.size} bytes, more than the ${MAX_INPUT_FILE_BYTES} (16 MiB) an input file may have.`,
      );
    }
    return decodeUtf8(label, await handle.readFile({ signal }).catch(cannot));
  } finally {
    await handle.close();
  }
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
    throw new ConfigurationError(
      `${label} is not UTF-8 text (${at}): save it as UTF-8, e.g. iconv -f latin1 -t utf-8.`,
    );
  }
}

/** "line 3, column 7" of a string offset. */
export function position(text: string, offset: number): string {
  const before = text.slice(0, Math.max(0, offset));
  const line = before.split("\n").length;
  return `line ${line}, column ${offset - before.lastIndexOf("\n")}`;
}
