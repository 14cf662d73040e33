import type { CliContext } from "./context.js";
import { UsageError } from "./cli-errors.js";
import type { OptionValues } from "./command-line.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { writeLine } from "./output.js";
import { withSession } from "./session.js";

const AGO = /^(\d+(?:\.\d+)?)(m|h|d)$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

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
  const after = when("--after", values.after);
  const before = values.before === undefined ? undefined : when("--before", values.before);
  const { runSummaries } = await import("../index.js");
  return withSession("report", values, context, async ({ client, scope }) => {
    for await (const row of runSummaries(client, { after, before, by, signal: scope.signal }))
      await writeLine(context.stdout, row);
    return EXIT.ok;
  });
}

/** An ISO 8601 instant or UTC day as given, or a duration ago ("24h", "7d") as an instant. */
function when(flag: string, text: string): string {
  const ago = AGO.exec(text.trim());
  if (ago) {
    const ms = Number(ago[1]) * UNIT_MS[ago[2] as keyof typeof UNIT_MS];
    return new Date(Date.now() - ms).toISOString();
  }
  if (Number.isNaN(Date.parse(text))) {
    throw new UsageError(
      `${flag} ${text}: expected an ISO 8601 instant, a day (YYYY-MM-DD) or a duration ago (24h, 7d).`,
    );
  }
  return text;
}
