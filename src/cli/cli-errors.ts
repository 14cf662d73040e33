/** Bad command-line input, found before any request: reported as one line, exit code 2. */
export class UsageError extends Error {}
UsageError.prototype.name = "UsageError";

/** The command did not finish within its --timeout: exit code 3. */
export class DeadlineError extends Error {}
DeadlineError.prototype.name = "DeadlineError";
