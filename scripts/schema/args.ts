import { parseArgs, type ParseArgsConfig } from "node:util";

type FlagOptions = NonNullable<ParseArgsConfig["options"]>;

/**
 * The schema scripts' flags, parsed strictly by util.parseArgs (an unknown flag, or one without
 * its value, is an error); the error lists the flags there are.
 */
export function parseFlags<T extends FlagOptions>(argv: readonly string[], options: T) {
  return parse(argv, options, false).values;
}

/** The flags and the positional arguments (`npm run pack:line -- 1.140.0 --out dir`). */
export function parseCommand<T extends FlagOptions>(argv: readonly string[], options: T) {
  return parse(argv, options, true);
}

function parse<T extends FlagOptions>(argv: readonly string[], options: T, positionals: boolean) {
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals: positionals });
  } catch (error) {
    const known = Object.keys(options)
      .map((name) => `--${name}`)
      .join(", ");
    throw new Error(`${(error as Error).message.split("\n")[0]} (known: ${known})`);
  }
}
