import { UsageError } from "../errors/cli-errors.js";

/** A command's one positional argument (a run's workflowId, a pipeline); else `usage` as the error. */
export function singleArgument(args: string[], usage: string): string {
  const [argument, ...extra] = args;
  if (argument === undefined || extra.length > 0) throw new UsageError(usage);
  return argument;
}
