import { oneLine } from "./client-options.js";
import { parseCommandLine, type CommandLine } from "./command-line.js";
import type { CliContext } from "./context.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { write } from "./output.js";
import { UsageError } from "../errors/cli-errors.js";
import { terminalSafe } from "./terminal-text.js";
import { createRedactor } from "../core/redact.js";

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
    switch (line.command) {
      case "emulator": {
        if (line.args.length > 0) throw new UsageError(`Unexpected argument "${line.args[0]}".`);
        const { emulatorCommand } = await import("./emulator-command.js");
        return await emulatorCommand(line.values, context);
      }
      case "operations": {
        const { operationsCommand } = await import("./operations-command.js");
        return await operationsCommand(line.args, context);
      }
      case "launch": {
        const { launchCommand } = await import("./launch-command.js");
        return await launchCommand(line.args, line.values, context);
      }
      case "relaunch": {
        const { relaunchCommand } = await import("./relaunch-command.js");
        return await relaunchCommand(line.args, line.values, context);
      }
      case "cancel": {
        const { cancelCommand } = await import("./cancel-command.js");
        return await cancelCommand(line.args, line.values, context);
      }
      case "wait": {
        const { waitCommand } = await import("./wait-command.js");
        return await waitCommand(line.args, line.values, context);
      }
      case "logs": {
        const { logsCommand } = await import("./logs-command.js");
        return await logsCommand(line.args, line.values, context);
      }
      case "runs":
      case "watch": {
        const { runsCommand } = await import("./runs-command.js");
        return await runsCommand(line.command, line.args, line.values, context);
      }
      case "failed-tasks": {
        const { failedTasksCommand } = await import("./failed-tasks-command.js");
        return await failedTasksCommand(line.args, line.values, context);
      }
      case "copy-pipeline": {
        const { copyPipelineCommand } = await import("./copy-pipeline-command.js");
        return await copyPipelineCommand(line.args, line.values, context);
      }
      case "datasets": {
        const { datasetsCommand } = await import("./datasets-command.js");
        return await datasetsCommand(line.args, line.values, context);
      }
      case "pipelines": {
        const { pipelinesCommand } = await import("./pipelines-command.js");
        return await pipelinesCommand(line.args, line.values, context);
      }
      case "report": {
        const { reportCommand } = await import("./report-command.js");
        return await reportCommand(line.args, line.values, context);
      }
      case "teams":
      case "members":
      case "participants":
      case "data-links": {
        const { resourceCommand } = await import("./resource-commands.js");
        return await resourceCommand(line.command, line.args, line.values, context);
      }
    }
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

/**
 * The one line on stderr: without the token (an argument may have been the token itself,
 * `--url "$TOWER_ACCESS_TOKEN"`) and with any control the service sent made inert.
 */
function report(context: CliContext, line: string): void {
  const token = context.env.TOWER_ACCESS_TOKEN?.trim();
  const redacted = token ? createRedactor(token)(line) : line;
  context.stderr.write(`${terminalSafe(redacted)}\n`);
}
