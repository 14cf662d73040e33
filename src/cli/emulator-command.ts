import { once } from "node:events";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { UsageError } from "../errors/cli-errors.js";
import type { OptionValues } from "./options.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { write, type Streams } from "./output.js";
import type { Emulator, EmulatorOptions, Handler } from "../testing/index.js";

/**
 * `seqera-api emulator [--port N] [--seed file.json] [--handlers module.mjs] [--rate-limit N]
 * [--rate-limit-mode cycles|sliding] [--faults kind=share,...]`: serves the emulator until
 * SIGINT or SIGTERM. Prints its URL and token as TOWER_* assignments (the token is the emulator's own, valid nowhere
 * else). Runs advance one step each time they are described or listed, so that polling clients (tw, a
 * script, `seqera-api wait`) see them progress and end.
 */
export async function emulatorCommand(values: OptionValues, streams: Streams): Promise<ExitCode> {
  const port = values.port === undefined ? undefined : parsePort(values.port);
  const seed = values.seed === undefined ? undefined : await readSeed(values.seed);
  const rateLimit = parseRateLimit(values["rate-limit"], values["rate-limit-mode"]);
  const faults = values.faults === undefined ? undefined : parseFaults(values.faults);
  const { startEmulator } = await import("../testing/index.js");
  const emulator = await startEmulator({
    port,
    seed,
    autoAdvance: true,
    runSteps: { onList: true },
    rateLimit,
    faults,
  }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "EADDRINUSE") throw new UsageError(`--port ${port}: already in use.`);
    throw new UsageError(`--seed ${values.seed}: ${error.message}`);
  });
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

/** `--rate-limit 3` / `off` and `--rate-limit-mode sliding`, as the emulator's `rateLimit`. */
function parseRateLimit(
  perSecond: string | undefined,
  mode: string | undefined,
): EmulatorOptions["rateLimit"] {
  if (mode !== undefined && mode !== "cycles" && mode !== "sliding") {
    throw new UsageError(`--rate-limit-mode takes cycles or sliding, got ${JSON.stringify(mode)}.`);
  }
  if (perSecond === "off") {
    if (mode !== undefined)
      throw new UsageError("--rate-limit-mode needs a limit: drop --rate-limit off.");
    return false;
  }
  const calls = perSecond === undefined ? undefined : Number(perSecond);
  if (calls !== undefined && !(Number.isInteger(calls) && calls >= 1)) {
    throw new UsageError(
      `--rate-limit takes calls per second per token (a whole number, 1 or more) or off, got ${JSON.stringify(perSecond)}.`,
    );
  }
  return { ...(calls !== undefined && { perSecond: calls }), ...(mode && { mode }) };
}

const FAULT_SHARES = {
  unavailable: "unavailableRate",
  reset: "resetRate",
  "rate-limited": "rateLimitedRate",
} as const;

/** `--faults unavailable=0.1,reset=0.05,rate-limited=0.2,delay=200,seed=7`, as `faults`. */
function parseFaults(text: string): NonNullable<EmulatorOptions["faults"]> {
  const faults: NonNullable<EmulatorOptions["faults"]> = {};
  const known = [...Object.keys(FAULT_SHARES), "delay", "seed"];
  for (const item of text.split(",")) {
    const [key = "", value = "", extra] = item.split("=");
    const number = Number(value);
    if (extra !== undefined || value === "" || !Number.isFinite(number)) {
      throw new UsageError(
        `--faults takes kind=number pairs separated by commas (${known.join(", ")}), e.g. unavailable=0.1,seed=7; got ${JSON.stringify(item)}.`,
      );
    }
    if (key in FAULT_SHARES) {
      if (number < 0 || number > 1) {
        throw new UsageError(`--faults ${key} is a share of requests from 0 to 1, got ${value}.`);
      }
      faults[FAULT_SHARES[key as keyof typeof FAULT_SHARES]] = number;
    } else if (key === "delay" && number >= 0) faults.delayMs = number;
    else if (key === "seed" && Number.isInteger(number)) faults.seed = number;
    else {
      throw new UsageError(
        key === "delay" || key === "seed"
          ? `--faults ${key} takes ${key === "delay" ? "milliseconds, 0 or more" : "a whole number"}, got ${value}.`
          : `--faults has no ${JSON.stringify(key)}: it takes ${known.join(", ")}.`,
      );
    }
  }
  const total =
    (faults.unavailableRate ?? 0) + (faults.resetRate ?? 0) + (faults.rateLimitedRate ?? 0);
  if (total > 1) throw new UsageError(`--faults shares add up to ${total}, more than 1.`);
  return faults;
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
