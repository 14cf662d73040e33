/**
 * The action's inputs, as the runner hands them to the step (`INPUT_<NAME>`), read and checked
 * before any request: a bad one is an InputError naming the input, and nothing is launched.
 */
import type { LaunchSettings } from "../automation/launch.js";
import { InputError, UsageError } from "../errors/cli-errors.js";
import { workspace as checkWorkspace } from "../config/checks.js";
import { resolveConfig, type SeqeraClientOptions } from "../config/config.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { allowsInsecureHttp, REDIS_ENV } from "../cli/client-options.js";
import { tell, toldFor } from "../errors/settings.js";
import { checkResumeKeeps } from "../automation/relaunch-rule.js";
import { parseDuration } from "../cli/duration.js";
import { readUtf8File } from "../core/text-file.js";
import { parseParamsText } from "../automation/params.js";
import type { Env } from "./workflow-commands.js";

/** Every input of action.yml, in its order there (a test holds the two to each other). */
export const INPUT_NAMES = [
  "pipeline",
  "workspace_id",
  "compute_env",
  "revision",
  "parameters",
  "params_file",
  "labels",
  "run_name",
  "profiles",
  "nextflow_version",
  "workdir",
  "nextflow_config",
  "pre_run_script",
  "relaunch",
  "resume",
  "wait",
  "timeout",
  "follow_log",
  "poll_interval",
  "fail_on_run_failure",
  "cancel_run",
  "access_token",
  "api_endpoint",
  "verbose",
] as const;

export type InputName = (typeof INPUT_NAMES)[number];

/**
 * The defaults action.yml declares (a test holds the two to each other); an input left empty
 * takes them too. The others default to what the environment says (TOWER_*, the repository).
 */
export const INPUT_DEFAULTS: Partial<Record<InputName, string>> = {
  resume: "true",
  wait: "false",
  follow_log: "false",
  poll_interval: "5s",
  fail_on_run_failure: "true",
  cancel_run: "false",
  verbose: "false",
};

/**
 * What `wait` takes besides true and false: action-tower-launch's values (it passed them to
 * `tw launch --wait=<status>`), the statuses a launched run reaches in this order.
 */
const WAIT_STATUSES = ["SUBMITTED", "RUNNING", "SUCCEEDED"] as const;

/** What the step was asked to do, every input checked. */
export interface ActionInputs {
  token: string;
  /** undefined: the client's default, https://api.cloud.seqera.io. */
  endpoint: string | undefined;
  /** An id or "org/workspace"; undefined: the token owner's personal workspace. */
  workspace: string | undefined;
  /** A Launchpad name or repository URL; undefined when relaunching. */
  pipeline: string | undefined;
  /** The earlier run to launch again. */
  relaunch: string | undefined;
  resume: boolean;
  settings: Omit<LaunchSettings, "workspaceId" | "wait" | "signal">;
  /** Wait for the run to end (follow_log waits too), or until it is RUNNING; false: no wait. */
  wait: false | "end" | "RUNNING";
  /** Log every API call (method, path template, status, time) to the job's log. */
  verbose: boolean;
  followLog: boolean;
  timeoutMs: number | undefined;
  pollIntervalMs: number | undefined;
  failOnRunFailure: boolean;
  cancelRun: boolean;
  /** Also seen by the runner as secrets to mask: the token, a Redis URL's password. */
  secrets: string[];
}

/** The runner's name for an input's variable: spaces become `_`, letters upper case. */
export function inputVariable(name: string): string {
  return `INPUT_${name.replace(/ /g, "_").toUpperCase()}`;
}

/** Reads and checks every input; a relative params_file is read from the current directory. */
export async function readInputs(env: Env): Promise<ActionInputs> {
  try {
    return await read(env);
  } catch (error) {
    // The readers name what they read ("Input params_file p.yaml: ..."): the same words here.
    if (error instanceof UsageError || error instanceof ConfigurationError) {
      throw new InputError(tell(error, "action"));
    }
    throw error;
  }
}

async function read(env: Env): Promise<ActionInputs> {
  const input = (name: InputName) =>
    env[inputVariable(name)]?.trim() || INPUT_DEFAULTS[name] || undefined;
  // Every true/false input has its default in INPUT_DEFAULTS.
  const flag = (name: InputName) => booleanInput(name, input(name) ?? "");
  const duration = (name: InputName) => {
    const text = input(name);
    return text === undefined ? undefined : parseDuration(`Input ${name}`, text);
  };
  const list = (name: InputName) =>
    input(name)
      ?.split(/[,\n]/)
      .map((item) => item.trim())
      .filter(Boolean);

  const token = input("access_token") ?? (env.TOWER_ACCESS_TOKEN?.trim() || undefined);
  if (!token) {
    throw new InputError(
      "No Seqera access token: set the input access_token (e.g. access_token: ${{ secrets.TOWER_ACCESS_TOKEN }}) or the variable TOWER_ACCESS_TOKEN.",
    );
  }
  const tokenFrom = input("access_token") ? "Input access_token" : "TOWER_ACCESS_TOKEN";
  checkClientOption(tokenFrom, { token });
  const endpointInput = input("api_endpoint");
  const endpoint = endpointInput ?? (env.TOWER_API_ENDPOINT?.trim() || undefined);
  if (endpoint !== undefined) {
    // Given where it came from, so that the client's check names the input or the variable.
    const allowInsecureHttp = allowsInsecureHttp(env);
    checkClientOption(
      endpointInput ? "Input api_endpoint" : "TOWER_API_ENDPOINT",
      endpointInput
        ? { baseUrl: endpoint, allowInsecureHttp }
        : { env: { TOWER_API_ENDPOINT: endpoint }, allowInsecureHttp },
    );
  }
  const workspace = input("workspace_id") ?? (env.TOWER_WORKSPACE_ID?.trim() || undefined);
  const workspaceFrom = input("workspace_id") ? "Input workspace_id" : "TOWER_WORKSPACE_ID";
  if (workspace !== undefined) asInput(() => checkWorkspace(workspace, workspaceFrom));

  const relaunch = input("relaunch");
  const resume = flag("resume");
  const named = input("pipeline");
  const workDir = input("workdir");
  if (relaunch !== undefined) {
    asInput(() => checkResumeKeeps({ resume, workDir, pipeline: named }));
  }
  // As action-tower-launch: the repository the workflow runs in.
  const repository = env.GITHUB_REPOSITORY ? `https://github.com/${env.GITHUB_REPOSITORY}` : "";
  const pipeline = relaunch === undefined ? (named ?? repository) : named;
  if (pipeline === "") {
    throw new InputError(
      "No pipeline: set the input pipeline (a Launchpad pipeline's name or a repository URL), or relaunch (an earlier run's id).",
    );
  }

  const inline = input("parameters");
  const file = input("params_file");
  if (inline !== undefined && file !== undefined) {
    throw new InputError(
      "parameters and params_file both given: put the params in one of them (a file's path, or JSON or YAML inline).",
    );
  }
  const params =
    inline !== undefined
      ? await parseParamsText(inline, "Input parameters")
      : file !== undefined
        ? await parseParamsText(
            await readUtf8File(`Input params_file ${file}`, file),
            `Input params_file ${file}`,
          )
        : undefined;

  const followLog = flag("follow_log");
  const redis = env[REDIS_ENV]?.trim();
  const redisPassword = redis && URL.canParse(redis) ? new URL(redis).password : "";
  return {
    token,
    endpoint,
    workspace,
    pipeline,
    relaunch,
    resume,
    settings: {
      computeEnv: input("compute_env"),
      revision: input("revision"),
      params,
      labels: list("labels"),
      runName: input("run_name"),
      configProfiles: list("profiles"),
      nextflowVersion: input("nextflow_version"),
      workDir,
      configText: input("nextflow_config"),
      preRunScript: input("pre_run_script"),
    },
    wait: followLog ? "end" : waitInput(input("wait") ?? ""),
    followLog,
    verbose: flag("verbose"),
    timeoutMs: duration("timeout"),
    pollIntervalMs: duration("poll_interval"),
    failOnRunFailure: flag("fail_on_run_failure"),
    cancelRun: flag("cancel_run"),
    secrets: [token, ...(redisPassword ? [decodeURIComponent(redisPassword)] : [])],
  };
}

/**
 * The client's own check of the options an input gives (config layer), told as that input's:
 * `from` prefixes a message that names the library's option, not the step's input.
 */
function checkClientOption(from: string, options: SeqeraClientOptions): void {
  asInput(() => resolveConfig({ token: "checked-apart", env: {}, ...options }), `${from}: `);
}

/** A ConfigurationError as an InputError, told in the Action's terms, else prefixed by `prefix`. */
function asInput(check: () => unknown, prefix = ""): void {
  try {
    check();
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    throw new InputError(toldFor(error, "action") ?? `${prefix}${error.message}`);
  }
}

function waitInput(text: string): ActionInputs["wait"] {
  const status = WAIT_STATUSES.find((s) => s === text.toUpperCase());
  if (status === "SUBMITTED") return false;
  if (status === "RUNNING") return status;
  if (status === "SUCCEEDED") return "end";
  return booleanInput("wait", text) ? "end" : false;
}

/** As the runner's own actions read them: YAML 1.2's core booleans. */
function booleanInput(name: InputName, text: string): boolean {
  if (["true", "True", "TRUE"].includes(text)) return true;
  if (["false", "False", "FALSE"].includes(text)) return false;
  const statuses = name === "wait" ? `, or a status: ${WAIT_STATUSES.join(", ")}` : "";
  throw new InputError(`Input ${name} is "${text}": expected true or false${statuses}.`);
}
