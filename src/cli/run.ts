import { oneLine } from "./client-options.js";
import { parseCommandLine, type CommandLine } from "./command-line.js";
import type { CommandName } from "./commands.js";
import type { ResourceCommand } from "./resource-commands.js";
import type { CliContext } from "./context.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { reportLine, write } from "./output.js";
import { UsageError } from "../errors/cli-errors.js";

/**
 * Runs one command line and returns its exit code; every failure becomes one line on stderr.
 * Each command's modules are imported when it runs, so that `--version` loads neither the
 * client nor the schema.
 */
export async function run(argv: string[], context: CliContext): Promise<ExitCode> {
  let parsed: CommandLine | undefined;
  try {
    const line = parseCommandLine(argv);
    parsed = line;
    if (line.values.version) {
      const { versionLine } = await import("./version.js");
      await write(context.stdout, versionLine());
      return EXIT.ok;
    }
    const help = async () => {
      const { commandHelp } = await import("./help.js");
      await write(context.stdout, commandHelp(line.command));
      return EXIT.ok;
    };
    switch (line.command) {
      case undefined:
        if (line.values.help) return await help();
        throw new UsageError(
          "Name an operation, e.g. seqera-api ListWorkflows (seqera-api --help for more).",
        );
      case "call": {
        const { callCommand } = await import("./call-command.js");
        return await callCommand(line.args, line.values, line.fields, context);
      }
    }
    if (line.values.help) return await help();
    return await HANDLERS[line.command](line, context);
  } catch (error) {
    // Bad input is reported without loading the client's error classes.
    if (error instanceof UsageError) {
      report(context, `seqera-api: ${oneLine(error.message)}`);
      return EXIT.usage;
    }
    const { errorLine, exitCodeFor, ranBy } = await import("./report-error.js");
    report(context, errorLine(error, ranBy(parsed)));
    return exitCodeFor(error);
  }
}

/** The one line on stderr. */
function report(context: CliContext, line: string): void {
  reportLine(context.stderr, context.env.TOWER_ACCESS_TOKEN, line);
}

type Handler = (line: CommandLine, context: CliContext) => Promise<ExitCode>;

/**
 * Each command word's handler (command-line.ts's COMMANDS names them), its module imported when
 * it runs.
 */
const HANDLERS: Record<Exclude<CommandName, "call">, Handler> = {
  emulator: async (line, context) => {
    if (line.args.length > 0) throw new UsageError(`Unexpected argument "${line.args[0]}".`);
    const { emulatorCommand } = await import("./emulator-command.js");
    return emulatorCommand(line.values, context);
  },
  operations: async (line, context) =>
    (await import("./operations-command.js")).operationsCommand(line.args, context),
  launch: async (line, context) =>
    (await import("./launch-command.js")).launchCommand(line.args, line.values, context),
  relaunch: async (line, context) =>
    (await import("./relaunch-command.js")).relaunchCommand(line.args, line.values, context),
  cancel: async (line, context) =>
    (await import("./cancel-command.js")).cancelCommand(line.args, line.values, context),
  wait: async (line, context) =>
    (await import("./wait-command.js")).waitCommand(line.args, line.values, context),
  logs: async (line, context) =>
    (await import("./logs-command.js")).logsCommand(line.args, line.values, context),
  runs: (line, context) => runs("runs", line, context),
  watch: (line, context) => runs("watch", line, context),
  "failed-tasks": async (line, context) =>
    (await import("./failed-tasks-command.js")).failedTasksCommand(line.args, line.values, context),
  "copy-pipeline": async (line, context) =>
    (await import("./copy-pipeline-command.js")).copyPipelineCommand(
      line.args,
      line.values,
      context,
    ),
  datasets: async (line, context) =>
    (await import("./datasets-command.js")).datasetsCommand(line.args, line.values, context),
  pipelines: async (line, context) =>
    (await import("./pipelines-command.js")).pipelinesCommand(line.args, line.values, context),
  report: async (line, context) =>
    (await import("./report-command.js")).reportCommand(line.args, line.values, context),
  teams: (line, context) => resource("teams", line, context),
  members: (line, context) => resource("members", line, context),
  participants: (line, context) => resource("participants", line, context),
  "data-links": (line, context) => resource("data-links", line, context),
  "compute-envs": (line, context) => resource("compute-envs", line, context),
  credentials: (line, context) => resource("credentials", line, context),
  secrets: (line, context) => resource("secrets", line, context),
  plan: (line, context) => declare("plan", line, context),
  apply: (line, context) => declare("apply", line, context),
  export: async (line, context) =>
    (await import("./declare-command.js")).exportCommand(line.args, line.values, context),
};

async function declare(command: "plan" | "apply", line: CommandLine, context: CliContext) {
  const { declareCommand } = await import("./declare-command.js");
  return declareCommand(command, line.args, line.values, context);
}

async function runs(command: "runs" | "watch", line: CommandLine, context: CliContext) {
  const { runsCommand } = await import("./runs-command.js");
  return runsCommand(command, line.args, line.values, context);
}

async function resource(command: ResourceCommand, line: CommandLine, context: CliContext) {
  const { resourceCommand } = await import("./resource-commands.js");
  return resourceCommand(command, line.args, line.values, context);
}
