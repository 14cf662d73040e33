/** Bad command-line input, found before any request: reported as one line, exit code 2. */
export class UsageError extends Error {}
UsageError.prototype.name = "UsageError";
