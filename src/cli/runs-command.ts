import type { ListRunsOptions } from "../automation/list-runs.js";
import type { RunStatus } from "../schema/types.js";
import { UsageError } from "../errors/cli-errors.js";
import type { OptionValues } from "./options.js";
import type { CliContext } from "./context.js";
import { pastInstant } from "./duration.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { readerGone, write, writeLine } from "./output.js";
import { errorLine, exitCodeFor } from "./report-error.js";
import { withSession } from "./session.js";

const STATUSES = ["SUBMITTED", "RUNNING", "SUCCEEDED", "FAILED", "CANCELLED", "UNKNOWN"];

/**
 * `seqera-api runs`: the runs of the workspace (or of every workspace of --organization), one
 * JSON line each, newest first, with their labels and `elapsedMs`. `seqera-api watch`: one line
 * per change (`{"change": "seen" | "status" | "gone", "previousStatus", "run"}`) until every run
 * it saw ended; exit 0 when every one ended SUCCEEDED, 1 when one ended otherwise, 3 --timeout;
 * a workspace lost to a 403 or 404 is said on stderr and, unless a run failed, gives the exit
 * code (4 for a 403) once the others are done.
 */
export async function runsCommand(
  command: "runs" | "watch",
  args: string[],
  values: OptionValues,
  context: CliContext,
): Promise<ExitCode> {
  if (args.length > 0) {
    throw new UsageError(
      `Unexpected argument "${args[0]}": seqera-api ${command} takes options only.`,
    );
  }
  const filters = runFilters(values);
  const { listRuns, listWorkspaces, watchRuns } = await import("../index.js");
  return withSession(command, values, context, async ({ client, scope, pollIntervalMs }) => {
    const { signal } = scope;
    const organization = values.organization;
    if (command === "watch") {
      let outcome: ExitCode = EXIT.ok;
      // A workspace lost to a 403/404 is said on stderr; the exit code says it unless a run failed.
      let lost: ExitCode | undefined;
      const onWorkspaceLost = (workspace: string | undefined, error: unknown) => {
        lost ??= exitCodeFor(error);
        void write(
          context.stderr,
          `${errorLine(error, { command: "watch" })}; workspace ${workspace ?? "(personal)"} is no longer watched, the others are.\n`,
        );
      };
      for await (const change of watchRuns(client, {
        ...filters,
        organization,
        untilEnded: true,
        pollIntervalMs,
        onWorkspaceLost,
        signal,
      })) {
        await writeLine(context.stdout, change);
        // `| head` has read enough: stop polling, as --paginate stops paging.
        if (readerGone(context.stdout)) break;
        const status = change.run.status;
        if (status === "FAILED" || status === "CANCELLED" || status === "UNKNOWN") {
          outcome = EXIT.runFailed;
        }
      }
      return outcome === EXIT.ok ? (lost ?? outcome) : outcome;
    }
    const clients =
      organization === undefined
        ? [client]
        : (await listWorkspaces(client, { organization, signal })).map((w) =>
            client.withWorkspace(w.workspaceId),
          );
    for (const each of clients) {
      for await (const run of listRuns(each, { ...filters, signal })) {
        await writeLine(context.stdout, run);
        if (readerGone(context.stdout)) return EXIT.ok;
      }
    }
    return EXIT.ok;
  });
}

/** The listRuns filters of the flags: statuses checked, times read. */
function runFilters(values: OptionValues): ListRunsOptions {
  const status = values.status?.map((s) => s.toUpperCase());
  const wrong = status?.find((s) => !STATUSES.includes(s));
  if (wrong) throw new UsageError(`--status ${wrong}: expected one of ${STATUSES.join(", ")}.`);
  // A list flag of the launch settings' table (typed from it as one string).
  const labels = (values as { labels?: string[] }).labels;
  return {
    ...(status && { status: status as RunStatus[] }),
    ...(labels && { labels }),
    ...(values.search && { search: values.search }),
    ...(values.after && { after: pastInstant("--after", values.after) }),
    ...(values.before && { before: pastInstant("--before", values.before) }),
  };
}
