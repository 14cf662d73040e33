import { once } from "node:events";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { UsageError } from "./cli-errors.js";
import type { OptionValues } from "./command-line.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { write, type Streams } from "./output.js";
import type { Emulator, Handler } from "../testing/index.js";

/**
 * `seqera-api emulator [--port N] [--seed file.json] [--handlers module.mjs]`: serves the
 * emulator until SIGINT or SIGTERM. Prints its URL and token as TOWER_* assignments (the token is the emulator's own, valid nowhere
 * else). Runs advance one step each time they are described, so that polling clients (tw, a
 * script, `seqera-api wait`) see them progress and end.
 */
export async function emulatorCommand(values: OptionValues, streams: Streams): Promise<ExitCode> {
  const port = values.port === undefined ? undefined : parsePort(values.port);
  const seed = values.seed === undefined ? undefined : await readSeed(values.seed);
  const { startEmulator } = await import("../testing/index.js");
  const emulator = await startEmulator({ port, seed, autoAdvance: true }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE") throw new UsageError(`--port ${port}: already in use.`);
      throw new UsageError(`--seed ${values.seed}: ${error.message}`);
    },
  );
  if (values.handlers !== undefined) {
    await loadHandlers(values.handlers, emulator).catch(async (error: Error) => {
      await emulator.close();
      throw new UsageError(`--handlers ${values.handlers}: ${error.message}`);
    });
  }
  // Listening before the URL is printed: whoever reads it may signal at once.
  const stopped = Promise.race([once(process, "SIGINT"), once(process, "SIGTERM")]);
  await write(
    streams.stdout,
    `TOWER_API_ENDPOINT=${emulator.url}\nTOWER_ACCESS_TOKEN=${emulator.token}\n`,
  );
  if (streams.stderr.isTTY) streams.stderr.write("Seqera API emulator running; Ctrl-C stops it.\n");
  await stopped;
  await emulator.close();
  return EXIT.ok;
}

/**
 * Applies a handlers module: its default export is `{ OperationId: handler }` (also
 * "METHOD /template" keys), or a function given the emulator (for `setHandler` and `state`).
 */
async function loadHandlers(file: string, emulator: Emulator): Promise<void> {
  const module = (await import(pathToFileURL(path.resolve(file)).href)) as { default?: unknown };
  const handlers = module.default;
  if (typeof handlers === "function") return void (await handlers(emulator));
  if (typeof handlers !== "object" || handlers === null) {
    throw new Error(
      "the module's default export must be { OperationId: (request) => answer } or (emulator) => {...}.",
    );
  }
  for (const [operation, handler] of Object.entries(handlers)) {
    if (typeof handler !== "function") throw new Error(`${operation} is not a function.`);
    emulator.setHandler(operation, handler as Handler);
  }
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new UsageError(
      `--port takes a port number from 1 to 65535, got ${JSON.stringify(text)}.`,
    );
  }
  return port;
}

async function readSeed(file: string) {
  const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`--seed ${file}: cannot read the file (${error.code ?? error.message}).`);
  });
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--seed ${file} is not JSON: ${(error as Error).message}`);
  }
}
