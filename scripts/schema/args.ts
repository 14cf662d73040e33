import { parseArgs, type ParseArgsConfig } from "node:util";

type FlagOptions = NonNullable<ParseArgsConfig["options"]>;

/**
 * The schema scripts' flags, parsed strictly by util.parseArgs (an unknown flag, or one without
 * its value, is an error); the error lists the flags there are.
 */
export function parseFlags<T extends FlagOptions>(argv: readonly string[], options: T) {
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    const known = Object.keys(options)
      .map((name) => `--${name}`)
      .join(", ");
    throw new Error(`${(error as Error).message.split("\n")[0]} (known: ${known})`);
  }
}
