import type { Params } from "../automation/params.js";
import { UsageError } from "./cli-errors.js";
import type { OptionValues } from "./command-line.js";
import { parseYamlText, readUtf8File } from "./input-text.js";
import { singleArgument } from "./single-argument.js";

const STATUS = /^(SUBMITTED|RUNNING|SUCCEEDED|FAILED|CANCELLED|UNKNOWN)$/i;

/** The one argument of launch or relaunch; tw's `--wait SUCCEEDED` told what --wait does here. */
export function launchArgument(args: string[], usage: string): string {
  if (args.length === 2 && STATUS.test(args[1]!)) {
    throw new UsageError(
      `--wait takes no status ("${args[1]}"): it waits for the run to end, and the exit code says how it ended (0 SUCCEEDED, 1 FAILED or CANCELLED).`,
    );
  }
  return singleArgument(args, usage);
}

/**
 * The launch settings of `launch` and `relaunch`, from tw's flags to the library's option names
 * (those of the launch request): files read (--config, --pre-run, --post-run, --params-file),
 * absent flags left out so that the saved setting is kept.
 */
export async function launchSettings(values: OptionValues) {
  const [params, configText, preRunScript, postRunScript] = await Promise.all([
    values["params-file"] === undefined ? undefined : readParams(values["params-file"]),
    readText("--config", values.config),
    readText("--pre-run", values["pre-run"]),
    readText("--post-run", values["post-run"]),
  ]);
  return {
    params,
    configText,
    preRunScript,
    postRunScript,
    computeEnv: values["compute-env"],
    runName: values.name,
    workDir: values["work-dir"],
    configProfiles: values.profile,
    revision: values.revision,
    mainScript: values["main-script"],
    entryName: values["entry-name"],
    schemaName: values["schema-name"],
    pullLatest: values["pull-latest"],
    stubRun: values["stub-run"],
    userSecrets: values["user-secrets"],
    workspaceSecrets: values["workspace-secrets"],
    launchContainer: values["launch-container"],
    outputDir: values["output-dir"],
    syntaxParser: syntaxParser(values["syntax-parser"]),
    nextflowVersion: values["nextflow-version"],
  };
}

function syntaxParser(text: string | undefined): "v1" | "v2" | undefined {
  if (text === undefined || text === "v1" || text === "v2") return text;
  throw new UsageError(`--syntax-parser ${text}: expected v1 or v2.`);
}

/** A file's UTF-8 text, for a flag that sends it (a config, a script); undefined without the flag. */
async function readText(flag: string, file: string | undefined): Promise<string | undefined> {
  return file === undefined ? undefined : readUtf8File(`${flag} ${file}`, file);
}

/** JSON or YAML (YAML reads JSON too); an object, as params are. Errors never quote the file. */
async function readParams(file: string): Promise<Params> {
  const label = `--params-file ${file}`;
  const params = await parseYamlText(label, await readUtf8File(label, file));
  if (typeof params !== "object" || params === null || Array.isArray(params)) {
    throw new UsageError(`${label} must hold an object of params (name: value).`);
  }
  return params as Params;
}
