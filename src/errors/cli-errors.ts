/** The front ends' own errors: the CLI's and the GitHub Action's. */

/** Bad command-line input, found before any request: reported as one line, exit code 2. */
export class UsageError extends Error {}
UsageError.prototype.name = "UsageError";

/** The command did not finish within its --timeout: exit code 3. */
export class DeadlineError extends Error {}
DeadlineError.prototype.name = "DeadlineError";

/** The signals a command stops on, cleanly: its requests aborted, what it did printed. */
export type Interrupt = "SIGINT" | "SIGTERM";

/** The command was stopped by SIGINT or SIGTERM: exit code 130 or 143, as a shell reports them. */
export class InterruptedError extends Error {
  constructor(
    readonly signal: Interrupt,
    message = `Interrupted by ${signal}.`,
  ) {
    super(message);
  }
}
InterruptedError.prototype.name = "InterruptedError";

/**
 * An Action input that cannot be used as given; the message names it and says what it takes. A
 * UsageError: exit code 2, as the CLI's bad flags.
 */
export class InputError extends UsageError {}
InputError.prototype.name = "InputError";
