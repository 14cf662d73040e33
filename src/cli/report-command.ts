import type { CliContext } from "./context.js";
import { UsageError } from "../errors/cli-errors.js";
import type { OptionValues } from "./options.js";
import { pastInstant } from "./duration.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { readerGone, writeLine } from "./output.js";
import { withSession } from "./session.js";

/**
 * `seqera-api report --after <when> [--before <when>] [--by completion|submission]`: the
 * library's runSummaries, one JSON line per run.
 */
export async function reportCommand(
  args: string[],
  values: OptionValues,
  context: CliContext,
): Promise<ExitCode> {
  if (args.length > 0) throw new UsageError(`Unexpected argument "${args[0]}".`);
  if (values.after === undefined) {
    throw new UsageError(
      "seqera-api report needs --after <when> (an ISO 8601 instant, a day, or 7d ago).",
    );
  }
  const by = values.by ?? "completion";
  if (by !== "completion" && by !== "submission") {
    throw new UsageError(`--by ${by}: expected completion or submission.`);
  }
  const after = pastInstant("--after", values.after);
  const before = values.before === undefined ? undefined : pastInstant("--before", values.before);
  const { runSummaries } = await import("../index.js");
  return withSession("report", values, context, async ({ client, scope }) => {
    for await (const row of runSummaries(client, { after, before, by, signal: scope.signal })) {
      await writeLine(context.stdout, row);
      // `| head` has read enough: stop describing runs, as --paginate stops paging.
      if (readerGone(context.stdout)) break;
    }
    return EXIT.ok;
  });
}
