import { OPTIONS, type CommandName } from "./command-line.js";
import { EXIT_MEANINGS } from "./exit-codes.js";
import { REDIS_ENV } from "./client-options.js";

const USAGE = `seqera-api: every operation of the Seqera Platform API from the shell.

Usage:
  seqera-api <OperationId> [options]        seqera-api ListWorkflows -q max=5
  seqera-api <METHOD> <path> [options]      seqera-api GET /workflow/4Bi5xBK6E2Nbhj
  seqera-api <OperationId> --help           its parameters, body fields and response
  seqera-api emulator                       serve a local emulator of the API
  seqera-api --version

Operation ids match in any case; a path may be the template (/workflow/{workflowId}, with
-p workflowId=...) or filled in (/workflow/4Bi5xBK6E2Nbhj), and may end with ?name=value.
JSON goes to stdout: indented on a terminal, one line in a pipe.`;

const ENVIRONMENT = `Environment:
  TOWER_ACCESS_TOKEN         the access token (no flag: it would stay in shell history)
  TOWER_API_ENDPOINT         the API's URL (--url)
  TOWER_WORKSPACE_ID         the default workspace id (--workspace)
  ${REDIS_ENV.padEnd(26)} a Redis URL: processes on one token share its rate limit`;

const EMULATOR = `seqera-api emulator: a local emulator of the Seqera Platform API, built from the same schema.

Usage:
  seqera-api emulator

Listens on 127.0.0.1 (a free port) until SIGINT or SIGTERM, and prints on stdout
  TOWER_API_ENDPOINT=http://127.0.0.1:<port>
  TOWER_ACCESS_TOKEN=<a token valid for this emulator only>
so that another shell can use it:  seqera-api emulator > emulator.env &  set -a; . ./emulator.env`;

/** The help of a command, or the general one; options listed from the parser's table. */
export function commandHelp(command: CommandName | undefined): string {
  if (command === "emulator") return `${EMULATOR}\n`;
  const options = Object.entries(OPTIONS)
    .filter(
      ([, spec]) =>
        (spec.commands as readonly string[]).includes("call") || spec.commands.length === 0,
    )
    .map(([name, spec]) => {
      const short = "short" in spec ? `-${spec.short}, ` : "    ";
      const value = "value" in spec ? ` ${spec.value}` : "";
      return `  ${`${short}--${name}${value}`.padEnd(26)} ${spec.help}`;
    });
  const codes = Object.entries(EXIT_MEANINGS).map(
    ([code, meaning]) => `  ${code.padEnd(4)} ${meaning}`,
  );
  return [USAGE, "", "Options:", ...options, "", ENVIRONMENT, "", "Exit codes:", ...codes, ""].join(
    "\n",
  );
}
