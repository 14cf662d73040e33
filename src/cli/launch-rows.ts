/**
 * `seqera-api launch --rows <file|->`: many launches from one process, one row of settings each
 * (CSV or JSON lines, columns named as the launch command's flags), in one client so that its
 * rate limiter paces them and its lookups are shared.
 */
import type { CliContext } from "./context.js";
import { OPTIONS, parseCommandLine, type OptionName, type OptionValues } from "./command-line.js";
import { didYouMean } from "./closest.js";
import { DeadlineError, InterruptedError, UsageError } from "../errors/cli-errors.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { readFileOption } from "./input-text.js";
import { launchSettings } from "./launch-options.js";
import { reportLine, writeLine } from "./output.js";
import { readRows, type Cell, type Row } from "./rows.js";
import { withSession, type Session } from "./session.js";

/**
 * Rows launched at once: enough for the rate limiter to be what paces them (a launch makes two
 * to five calls, its lookups shared; 150 rows took 15.6 s at 20 calls a second).
 */
const IN_FLIGHT = 8;

/** `--rows -` reads standard input: a params file cannot be read from it too. */
const STDIN_TAKEN = "Standard input holds the rows (--rows -): give --params-file a file.";
const stdinTaken = async (): Promise<string> => {
  throw new UsageError(STDIN_TAKEN);
};

/** The command's own options, the same for every row; the other launch options may be columns. */
const PER_COMMAND: ReadonlySet<string> = new Set([
  "rows",
  "wait",
  "timeout",
  "poll-interval",
  "url",
  "workspace",
  "verbose",
  "help",
]);

/** `pipeline`, `key` (the row's name of your own, sent nowhere) and the launch flags. */
export const ROW_COLUMNS: readonly string[] = [
  "pipeline",
  "key",
  ...Object.entries(OPTIONS)
    .filter(([name, spec]) => spec.commands.some((c) => c === "launch") && !PER_COMMAND.has(name))
    .map(([name]) => name),
];

/**
 * Launches each row with the command line's options under its own (a row's column replaces the
 * flag); the pipeline is the row's `pipeline`, else the argument. Prints one JSON line per row
 * as each ends (completion order; `row` says which): `{"row", "key", "pipeline", "workflowId",
 * "createdLabels"}`, or `{"row", "key", "pipeline", "error", "exitCode"}` with the error's line
 * on stderr too. Exit 0 when every row launched, else the exit code of the first failed row.
 */
export async function launchRows(
  args: string[],
  values: OptionValues,
  context: CliContext,
): Promise<ExitCode> {
  const file = values.rows!;
  if (args.length > 1) throw new UsageError("Usage: seqera-api launch [pipeline] --rows <file|->");
  if (values.wait) {
    throw new UsageError("--wait does not apply to --rows: follow each run with seqera-api wait.");
  }
  if (file === "-" && values["params-file"]?.includes("-")) throw new UsageError(STDIN_TAKEN);
  // Read and checked before any request: a file that cannot be right launches nothing. A regular
  // file only (a FIFO is refused), so no --timeout is needed for it.
  const { label, text } = await readFileOption("--rows", file, context);
  const rows = readRows(label, text);
  checkColumns(label, rows);
  if (rows.length === 0) {
    reportLine(context.stderr, undefined, `seqera-api: ${label} has no rows: nothing launched.`);
    return EXIT.ok;
  }
  return withSession(`launch --rows ${file}`, values, context, async (session) => {
    const outcomes = await launchAll(session, rows, args[0], values, context);
    const launched = outcomes.filter((code) => code === EXIT.ok).length;
    const { scope } = session;
    if (scope.signal.aborted) {
      const left = rows.filter((_, at) => outcomes[at] === undefined).map((r) => r.row);
      const done = `launched ${launched} of ${rows.length} rows (their lines are above); rows stopped before their launch was answered: ${left.join(", ") || "none"}.`;
      const reason: unknown = scope.signal.reason;
      if (reason instanceof InterruptedError) {
        throw new InterruptedError(reason.signal, `Interrupted by ${reason.signal}: ${done}`);
      }
      if (reason instanceof DeadlineError) {
        throw new DeadlineError(`${reason.message.replace(/\.$/, "")}: ${done}`);
      }
      throw reason;
    }
    return outcomes.find((code) => code !== undefined && code !== EXIT.ok) ?? EXIT.ok;
  });
}

/** A column no launch flag has is a typo in every row: refused before anything is launched. */
function checkColumns(label: string, rows: Row[]): void {
  for (const row of rows) {
    if (!("cells" in row)) continue;
    const unknown = Object.keys(row.cells).find((name) => !ROW_COLUMNS.includes(name));
    if (unknown === undefined) continue;
    const why = PER_COMMAND.has(unknown)
      ? ` --${unknown} is the same for every row: give it on the command line.`
      : didYouMean(unknown, ROW_COLUMNS);
    throw new UsageError(`${label}: row ${row.row} has no launch setting "${unknown}".${why}`);
  }
}

/** Each row's exit code, by position; undefined for a row not launched (stopped first). */
async function launchAll(
  session: Session,
  rows: Row[],
  argument: string | undefined,
  values: OptionValues,
  context: CliContext,
): Promise<(ExitCode | undefined)[]> {
  const { launchPipeline } = await import("../index.js");
  const { errorLine, exitCodeFor } = await import("./report-error.js");
  const { scope, client } = session;
  const rowsOnStdin = values.rows === "-";
  const outcomes: (ExitCode | undefined)[] = rows.map(() => undefined);
  let next = 0;
  const lane = async () => {
    while (next < rows.length && !scope.stopping && !scope.signal.aborted) {
      const at = next++;
      const row = rows[at]!;
      const cells = "cells" in row ? row.cells : {};
      // An empty cell is no setting, as a missing column.
      const text = (cell: Cell | undefined) =>
        typeof cell === "number" || (typeof cell === "string" && cell !== "")
          ? String(cell)
          : undefined;
      const key = text(cells.key) === undefined ? {} : { key: text(cells.key) };
      const pipeline = text(cells.pipeline) ?? argument;
      const said = { row: row.row, ...key, ...(pipeline === undefined ? {} : { pipeline }) };
      try {
        if ("problem" in row) throw new UsageError(`${row.problem}.`);
        if (!pipeline) throw new UsageError("names no pipeline: give a pipeline column.");
        const own = rowValues(cells);
        const input = rowsOnStdin ? { stdin: stdinTaken } : context;
        const settings = await launchSettings({ ...values, ...own }, input, scope.signal);
        const { workflowId, createdLabels } = await scope.shielded((signal) =>
          launchPipeline(client, pipeline, {
            ...settings,
            versionName: own["version-name"] ?? values["version-name"],
            versionId: own["version-id"] ?? values["version-id"],
            signal,
          }),
        );
        outcomes[at] = EXIT.ok;
        await writeLine(context.stdout, { ...said, workflowId, createdLabels });
      } catch (error) {
        // Stopped before its launch: a row not launched, told in the summary.
        if (scope.signal.aborted && outcomes[at] === undefined) return;
        const line = errorLine(error, { command: "launch" }).replace(/^seqera-api( launch)?: /, "");
        outcomes[at] = exitCodeFor(error);
        await writeLine(context.stdout, { ...said, error: line, exitCode: outcomes[at] });
        const where = `seqera-api launch --rows: row ${row.row}`;
        reportLine(context.stderr, context.env.TOWER_ACCESS_TOKEN, `${where}: ${line}`);
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  return outcomes;
}

/**
 * A row's cells as the launch command's options, parsed as its flags are (`--name=value`), so
 * that a column takes what the flag takes: lists split at commas, aliases, one value each.
 */
function rowValues(cells: Record<string, Cell>): OptionValues {
  const argv = Object.entries(cells).flatMap(([name, cell]): string[] => {
    if (name === "pipeline" || name === "key" || cell === null || cell === "") return [];
    if (OPTIONS[name as OptionName].type === "boolean") {
      if (cell === true || cell === "true") return [`--${name}`];
      if (cell === false || cell === "false") return [];
      throw new UsageError(`column "${name}" is a switch: true, false or empty.`);
    }
    if (typeof cell === "boolean") throw new UsageError(`column "${name}" takes text.`);
    const items: readonly (string | number)[] = Array.isArray(cell) ? cell : [cell as string];
    return items.map((item) => `--${name}=${item}`);
  });
  return parseCommandLine(["launch", ...argv]).values;
}
