/** Parsing a command line: the command word, its positionals, its options and fields. */
import { parseArgs } from "node:util";
import type { FieldArg } from "./body-fields.js";
import { didYouMean } from "./closest.js";
import { UsageError } from "../errors/cli-errors.js";
import { twCommandHint } from "./tw-commands.js";
import { COMMAND_WORDS, type CommandName } from "./commands.js";
import { OPTIONS, type OptionName, type OptionSpec, type OptionValues } from "./options.js";

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

export interface CommandLine {
  /** Undefined when no command was given (`seqera-api --version`, `seqera-api --help`). */
  command: CommandName | undefined;
  /** The positionals after the command word; for "call", all of them (operation or METHOD path). */
  args: string[];
  values: OptionValues;
  /** -F and -f in the order given (appends to one array may mix them). */
  fields: FieldArg[];
}

/** Parses argv (without node and the script). Throws UsageError with one line on bad input. */
export function parseCommandLine(argv: string[]): CommandLine {
  // Before the options: tw's are not all ours (`tw runs view -i <id>`).
  const tw = twCommandHint(argv);
  if (tw) throw new UsageError(tw);
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
  refuseRepeats(parsed.tokens);
  mergeAliases(values, parsed.tokens);
  const fields = parsed.tokens.flatMap((token) =>
    token.kind === "option" && (token.name === "field" || token.name === "raw-field")
      ? [{ text: token.value ?? "", typed: token.name === "field" }]
      : [],
  );
  return { command, args, values, fields };
}

/**
 * A single-value option given twice is refused, as tw (picocli) does: node's parser would keep
 * the last silently, and `--params a.yaml --params b.yaml` would launch without a.yaml.
 */
function refuseRepeats(tokens: NonNullable<ReturnType<typeof parseArgs>["tokens"]>): void {
  const seen = new Set<string>();
  for (const token of tokens) {
    if (token.kind !== "option") continue;
    const spec: OptionSpec = OPTIONS[token.name as OptionName];
    if (spec.type !== "string" || spec.multiple) continue;
    if (seen.has(token.name)) {
      throw new UsageError(
        `--${token.name} is given more than once: it takes one ${spec.value ?? "value"}.`,
      );
    }
    seen.add(token.name);
  }
}

/**
 * Each alias's value under its option's name; a repeated option's values from both names in the
 * order given; lists split at commas.
 */
function mergeAliases(
  values: OptionValues,
  tokens: NonNullable<ReturnType<typeof parseArgs>["tokens"]>,
): void {
  const all = values as Record<string, string | boolean | string[] | undefined>;
  for (const [name, spec] of Object.entries(OPTIONS) as [OptionName, OptionSpec][]) {
    const value = all[name];
    if (value === undefined) continue;
    if (spec.alias !== undefined && spec.multiple && !spec.commas) {
      const names = [name, spec.alias];
      all[spec.alias] = tokens.flatMap((t) =>
        t.kind === "option" && names.includes(t.name) ? [t.value ?? ""] : [],
      );
      delete all[name];
    } else if (spec.alias !== undefined) {
      if (all[spec.alias] !== undefined)
        throw new UsageError(`--${name} and --${spec.alias} are the same option: give one.`);
      all[spec.alias] = value;
      delete all[name];
    }
  }
  for (const [name, spec] of Object.entries(OPTIONS) as [OptionName, OptionSpec][]) {
    const value = all[name];
    if (spec.commas && Array.isArray(value)) {
      all[name] = value
        .flatMap((item) => item.split(","))
        .map((item) => item.trim())
        .filter(Boolean);
    }
  }
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
