import type { LaunchSettings } from "../automation/launch.js";
import { launchSettingRows } from "../automation/launch-settings.js";
import { merge, parseParamsText, type Params } from "../automation/params.js";
import { UsageError } from "../errors/cli-errors.js";
import type { OptionValues } from "./command-line.js";
import type { InputSource } from "./body-fields.js";
import { readFileOption } from "./input-text.js";
import { readUtf8File } from "../core/text-file.js";
import { singleArgument } from "./single-argument.js";
import { ENUMS } from "../../generated/enums.js";

const STATUSES = ENUMS.WorkflowStatus ?? [];

/** The one argument of launch or relaunch; tw's `--wait SUCCEEDED` told what --wait does here. */
export function launchArgument(args: string[], usage: string): string {
  if (args.length === 2 && STATUSES.includes(args[1]!.toUpperCase())) {
    throw new UsageError(
      `--wait takes no status ("${args[1]}"): it waits for the run to end, and the exit code says how it ended (0 SUCCEEDED, 1 FAILED or CANCELLED).`,
    );
  }
  return singleArgument(args, usage);
}

/**
 * The launch settings of `launch` and `relaunch`, from tw's flags to the library's settings, by
 * their table (automation/launch-settings.ts): files read (--config, --pre-run, --post-run,
 * --params-file), choices checked, absent flags left out so that the saved setting is kept.
 */
export async function launchSettings(
  values: OptionValues,
  input: InputSource,
  signal?: AbortSignal,
): Promise<LaunchSettings & { params?: Params }> {
  const given = values as Record<string, string | string[] | boolean | undefined>;
  const entries = await Promise.all(
    launchSettingRows().map(async ([key, { flag }]) => {
      const value = flag && given[flag.name];
      if (flag === undefined || value === undefined) return [key, undefined];
      if (key === "params") return [key, await readParams(value as string[], input, signal)];
      if (flag.file)
        return [key, await readUtf8File(`--${flag.name} ${value}`, value as string, signal)];
      if (flag.choices && !flag.choices.includes(value as string)) {
        throw new UsageError(`--${flag.name} ${value}: expected ${flag.choices.join(" or ")}.`);
      }
      return [key, value];
    }),
  );
  const settings = Object.fromEntries(entries.filter(([, value]) => value !== undefined));
  const pairs = values.param ?? [];
  if (pairs.length > 0) settings.params = await withParams(settings.params ?? {}, pairs);
  return settings as LaunchSettings & { params?: Params };
}

/**
 * The files' params, each merged over the ones before; "-" is standard input
 * (`--params-file -`, as tw reads it).
 */
async function readParams(
  files: string[],
  input: InputSource,
  signal?: AbortSignal,
): Promise<Params> {
  let params: Params = {};
  for (const file of files) {
    const { label, text } = await readFileOption("--params-file", file, input, signal);
    params = merge(params, await parseParamsText(text, label));
  }
  return params;
}

/** `-p a.b=value` pairs over the params: a dotted name nests, the value is read as YAML. */
async function withParams(params: Params, pairs: string[]): Promise<Params> {
  const { parse } = await import("yaml");
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    const name = pair.slice(0, eq);
    if (eq <= 0 || name.split(".").some((part) => part === "")) {
      throw new UsageError(`-p ${JSON.stringify(pair)}: expected name=value (a.b=value nests).`);
    }
    const text = pair.slice(eq + 1);
    let value: unknown = text;
    try {
      if (text !== "") value = parse(text);
    } catch {
      // Not YAML: the text as it is.
    }
    const nested = name
      .split(".")
      .reduceRight<unknown>((inner, key) => Object.fromEntries([[key, inner]]), value);
    params = merge(params, nested as Params);
  }
  return params;
}
