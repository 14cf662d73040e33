import { SchemaInputError } from "./parse.js";

/**
 * Runs a script's main and exits. Any failure is one line on stderr (`name: message`), so bad
 * input reads as a sentence, not a stack; DEBUG=1 adds the stack of unexpected errors.
 */
export function runCli(name: string, main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(failureLine(name, err));
      if (!(err instanceof SchemaInputError) && process.env.DEBUG) console.error(err);
      process.exit(1);
    },
  );
}

/** A script's failure as the one line it prints: `name: message`, the message's lines joined. */
export function failureLine(name: string, err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return `${name}: ${message.replace(/\s*\n\s*/g, " ")}`;
}
