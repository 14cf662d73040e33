import { parseArgs } from "node:util";
import type { FieldArg } from "./body-fields.js";
import { didYouMean } from "./closest.js";
import { UsageError } from "./cli-errors.js";

/** What the first positional argument selects. "call" is an API operation (by id or path). */
export type CommandName = "call" | "emulator" | "launch" | "wait" | "logs" | "datasets";

/** The commands that talk to the API (all but the emulator). */
const API_COMMANDS: readonly CommandName[] = ["call", "launch", "wait", "logs", "datasets"];
const WAITING: readonly CommandName[] = ["launch", "wait", "logs"];

interface OptionSpec {
  type: "string" | "boolean";
  short?: string;
  multiple?: boolean;
  /** Placeholder of the value in help, e.g. "name=value". */
  value?: string;
  help: string;
  /** The commands it applies to; the others refuse it, so a misplaced flag is never ignored. */
  commands: readonly CommandName[];
}

/** Every option of every command, once: the parser's table and the help's. */
export const OPTIONS = {
  param: {
    type: "string",
    short: "p",
    multiple: true,
    value: "name=value",
    help: "A path parameter, e.g. -p workflowId=4Bi5xBK6E2Nbhj (or write it in the path).",
    commands: ["call"],
  },
  query: {
    type: "string",
    short: "q",
    multiple: true,
    value: "name=value",
    help: "A query parameter; repeat it for each value of an array parameter.",
    commands: ["call"],
  },
  field: {
    type: "string",
    short: "F",
    multiple: true,
    value: "key=value",
    help: "A typed body field: true, false, null and numbers become JSON values (text where the schema wants a string), @file reads a file; a.b=1 nests, a[]=1 appends.",
    commands: ["call"],
  },
  "raw-field": {
    type: "string",
    short: "f",
    multiple: true,
    value: "key=value",
    help: "A body field whose value is always a string.",
    commands: ["call"],
  },
  input: {
    type: "string",
    value: "file",
    help: "The request body as JSON from a file, or - for standard input; -F/-f fields go on top.",
    commands: ["call"],
  },
  paginate: {
    type: "boolean",
    help: "Fetch every page of a list and print each item as one JSON line (NDJSON); -q max=N sets the page size.",
    commands: ["call"],
  },
  params: {
    type: "string",
    value: "file",
    help: "Params (JSON or YAML) deep-merged over the pipeline's saved ones.",
    commands: ["launch"],
  },
  "compute-env": {
    type: "string",
    value: "name",
    help: "The compute environment by name; default the saved one, else the workspace's primary.",
    commands: ["launch"],
  },
  revision: {
    type: "string",
    value: "ref",
    help: "A branch, tag or commit of the pipeline.",
    commands: ["launch"],
  },
  "run-name": { type: "string", value: "name", help: "The run's name.", commands: ["launch"] },
  label: {
    type: "string",
    multiple: true,
    value: "name",
    help: "A label by name (it must exist); repeat for several.",
    commands: ["launch"],
  },
  wait: {
    type: "boolean",
    help: "Wait for the run to end: exit 0 if it SUCCEEDED, 1 if it FAILED or was CANCELLED.",
    commands: ["launch"],
  },
  follow: {
    type: "boolean",
    help: "Print the console log as it grows, until the run ends.",
    commands: ["logs"],
  },
  header: {
    type: "boolean",
    help: "The file's first row is a header.",
    commands: ["datasets"],
  },
  timeout: {
    type: "string",
    value: "duration",
    help: "Give up after this long (90s, 30m, 2h): the whole command, lookups, retries, pages and waits included; exit code 3.",
    commands: ["call", ...WAITING],
  },
  "poll-interval": {
    type: "string",
    value: "duration",
    help: "First wait between two polls of a run (default 5s; it grows while nothing changes).",
    commands: WAITING,
  },
  port: {
    type: "string",
    value: "port",
    help: "The emulator's port on 127.0.0.1; default a free one.",
    commands: ["emulator"],
  },
  seed: {
    type: "string",
    value: "file",
    help: "JSON of what the emulator knows from the start: workspaces, pipelines, compute envs, runs...",
    commands: ["emulator"],
  },
  url: {
    type: "string",
    value: "url",
    help: "The API's URL; default TOWER_API_ENDPOINT, else https://api.cloud.seqera.io.",
    commands: API_COMMANDS,
  },
  workspace: {
    type: "string",
    short: "w",
    value: "id",
    help: "The workspace sent to operations that take one; default TOWER_WORKSPACE_ID.",
    commands: API_COMMANDS,
  },
  verbose: {
    type: "boolean",
    help: "Log each attempt of each request on stderr (method, path, status, duration; never the token).",
    commands: API_COMMANDS,
  },
  help: {
    type: "boolean",
    short: "h",
    help: "Show help: of an operation when one is named, else of the command.",
    commands: [...API_COMMANDS, "emulator"],
  },
  version: {
    type: "boolean",
    help: "Print the client's version and the API schema release it was built from.",
    commands: [],
  },
} as const satisfies Record<string, OptionSpec>;

export type OptionName = keyof typeof OPTIONS;

const parserOptions = Object.fromEntries(
  Object.entries(OPTIONS).map(([name, spec]) => [
    name,
    {
      type: spec.type,
      multiple: "multiple" in spec,
      ...("short" in spec && { short: spec.short }),
    },
  ]),
) as { [K in OptionName]: { type: (typeof OPTIONS)[K]["type"]; multiple: boolean } };

export type OptionValues = {
  [K in OptionName]?: (typeof OPTIONS)[K] extends { type: "boolean" }
    ? boolean
    : (typeof OPTIONS)[K] extends { multiple: true }
      ? string[]
      : string;
};

export interface CommandLine {
  /** Undefined when no command was given (`seqera-api --version`, `seqera-api --help`). */
  command: CommandName | undefined;
  /** The positionals after the command word; for "call", all of them (operation or METHOD path). */
  args: string[];
  values: OptionValues;
  /** -F and -f in the order given (appends to one array may mix them). */
  fields: FieldArg[];
}

const COMMAND_WORDS: ReadonlySet<string> = new Set<CommandName>([
  "emulator",
  "launch",
  "wait",
  "logs",
  "datasets",
]);

/** Parses argv (without node and the script). Throws UsageError with one line on bad input. */
export function parseCommandLine(argv: string[]): CommandLine {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: parserOptions,
      allowPositionals: true,
      strict: true,
      tokens: true,
    });
  } catch (error) {
    throw new UsageError(parseErrorLine(error));
  }
  const values = parsed.values as OptionValues;
  const [first, ...rest] = parsed.positionals;
  const word = first !== undefined && COMMAND_WORDS.has(first) ? (first as CommandName) : undefined;
  const command = word ?? (first === undefined ? undefined : "call");
  const args = word ? rest : parsed.positionals;
  for (const name of Object.keys(values) as OptionName[]) {
    const spec: OptionSpec = OPTIONS[name];
    if (name === "help" || name === "version") continue;
    if (command === undefined || !spec.commands.includes(command)) {
      const what = command === "call" ? "an operation call" : `seqera-api ${command}`;
      throw new UsageError(
        command === undefined
          ? `--${name} needs an operation, e.g. seqera-api ListWorkflows --${name} ...`
          : `--${name} does not apply to ${what}.`,
      );
    }
  }
  const fields = parsed.tokens.flatMap((token) =>
    token.kind === "option" && (token.name === "field" || token.name === "raw-field")
      ? [{ text: token.value ?? "", typed: token.name === "field" }]
      : [],
  );
  return { command, args, values, fields };
}

/** Node's parser explains at length; keep its first sentence and add the nearest option. */
function parseErrorLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const first = message.split(/\.\s/)[0]!.replace(/\.$/, "");
  const unknown = /Unknown option '(-{1,2})([^']+)'/.exec(message);
  if (!unknown) return `${first}.`;
  const longNames = Object.keys(OPTIONS).map((name) => `--${name}`);
  return `${first}.${didYouMean(`--${unknown[2]}`, longNames)}`;
}
