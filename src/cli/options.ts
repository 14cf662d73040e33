/** Every option of every command, once: what the parser reads and the help prints. */
import { ENUMS } from "../../generated/enums.js";
import { LAUNCH_SETTINGS, launchSettingRows } from "../automation/launch-settings.js";
import { COMMANDS, type CommandName } from "./commands.js";

/** The commands that talk to the API: an operation call, and those of COMMANDS that do. */
const API_COMMANDS: readonly CommandName[] = [
  "call",
  ...(Object.keys(COMMANDS) as (keyof typeof COMMANDS)[]).filter((word) => COMMANDS[word].api),
];
const RUN_LISTS: readonly CommandName[] = ["runs", "watch"];
const LAUNCHING: readonly CommandName[] = ["launch", "relaunch"];
/** The launch settings `pipelines update` and `pipelines versions add` change too. */
const PIPELINE_SETTINGS: ReadonlySet<string> = new Set(["revision", "params-file", "labels"]);
const WAITING: readonly CommandName[] = [...LAUNCHING, "wait", "logs"];

export interface OptionSpec {
  type: "string" | "boolean";
  short?: string;
  multiple?: boolean;
  /** Placeholder of the value in help, e.g. "name=value". */
  value?: string;
  help: string;
  /** The commands it applies to; the others refuse it, so a misplaced flag is never ignored. */
  commands: readonly CommandName[];
  /** Another name of that option (tw's, or an earlier one of ours). */
  alias?: string;
  /** A list: each value is split at commas, as tw does (`-l a,b`). */
  commas?: boolean;
}

type LaunchRow = (typeof LAUNCH_SETTINGS)[keyof typeof LAUNCH_SETTINGS];
/** The launch settings' flags and their aliases. */
type FlagNames<R> = R extends { flag: { name: infer N extends string } } ? N : never;
type AliasNames<R> = R extends { flag: { aliases: readonly (infer A extends string)[] } }
  ? A
  : never;
type LaunchOptionName = FlagNames<LaunchRow> | AliasNames<LaunchRow>;

/** The options of the launch settings, from their table (automation/launch-settings.ts). */
const LAUNCH_OPTIONS = Object.fromEntries(
  launchSettingRows().flatMap(([, { flag }]): [string, OptionSpec][] => {
    if (!flag) return [];
    const shared = {
      type: flag.value === undefined ? "boolean" : "string",
      ...(flag.list && { multiple: true, commas: true }),
      ...(flag.repeated && { multiple: true }),
      ...(flag.value !== undefined && { value: flag.value }),
      commands: [
        ...(flag.only ? [flag.only] : LAUNCHING),
        ...(PIPELINE_SETTINGS.has(flag.name) ? (["pipelines"] as const) : []),
      ],
    } as const;
    const aliases = (flag.aliases ?? []).map((alias): [string, OptionSpec] => [
      alias,
      { ...shared, help: `Same as --${flag.name}.`, alias: flag.name },
    ]);
    const short = flag.short === undefined ? {} : { short: flag.short };
    return [[flag.name, { ...shared, ...short, help: flag.help }], ...aliases];
  }),
) as Record<LaunchOptionName, OptionSpec>;

/** Every option of every command, once: the parser's table and the help's. */
export const OPTIONS = {
  param: {
    type: "string",
    short: "p",
    multiple: true,
    value: "name=value",
    help: "A path parameter, e.g. -p workflowId=4Bi5xBK6E2Nbhj (or write it in the path). launch, relaunch: one pipeline param over the params files (a.b=1 nests; the value is read as YAML: 10 is a number).",
    commands: ["call", ...LAUNCHING],
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
  ...LAUNCH_OPTIONS,
  "no-resume": {
    type: "boolean",
    help: "Run again from scratch instead of resuming (cached tasks are not reused).",
    commands: ["relaunch"],
  },
  "resume-if-available": {
    type: "boolean",
    help: "Resume when the service holds the run's commit, else run it again from scratch; the output's resumed says which.",
    commands: ["relaunch"],
  },
  pipeline: {
    type: "string",
    value: "url",
    help: "Run another repository with the run's settings (needs --no-resume).",
    commands: ["relaunch"],
  },
  wait: {
    type: "boolean",
    help: "Wait for the run to end: exit 0 if it SUCCEEDED, 1 if it FAILED or was CANCELLED.",
    commands: LAUNCHING,
  },
  rows: {
    type: "string",
    value: "file",
    help: "Launch once per row (CSV with a header row, or JSON lines; - reads standard input): columns named as these options, plus pipeline and key. One JSON line per row.",
    commands: ["launch"],
  },
  "version-name": {
    type: "string",
    value: "name",
    help: "A published version of the Launchpad pipeline, by name: launch it, name a new one (pipelines versions add), or make it the default (pipelines versions default).",
    commands: ["launch", "pipelines"],
  },
  "version-id": {
    type: "string",
    value: "id",
    help: "A version of the Launchpad pipeline, by id: launch it, or make it the default.",
    commands: ["launch", "pipelines"],
  },
  default: {
    type: "boolean",
    help: "Make the new version the pipeline's default (pipelines versions add).",
    commands: ["pipelines"],
  },
  published: {
    type: "boolean",
    help: "List the published versions only (pipelines versions list).",
    commands: ["pipelines"],
  },
  drafts: {
    type: "boolean",
    help: "List the draft versions only (pipelines versions list).",
    commands: ["pipelines"],
  },
  by: {
    type: "string",
    value: "completion|submission",
    help: "Which date of a run the window applies to; default completion.",
    commands: ["report"],
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
  description: {
    type: "string",
    short: "d",
    value: "text",
    help: "The dataset's description (when it is created), the pipeline's (pipelines update) or the credentials' (credentials set).",
    commands: ["datasets", "pipelines", "credentials"],
  },
  "from-file": {
    type: "string",
    value: "file",
    help: "The secret's value (secrets set) or the credentials' keys as JSON (credentials set), from a file or - for standard input; never an argument.",
    commands: ["secrets", "credentials"],
  },
  provider: {
    type: "string",
    value: "name",
    help: "The provider of credentials to create (aws, google, azure...); kept when they exist.",
    commands: ["credentials"],
  },
  lines: {
    type: "string",
    value: "n",
    help: "The last lines of each failed task's standard error (default 20).",
    commands: ["failed-tasks"],
  },
  to: {
    type: "string",
    value: "workspace",
    help: "The workspace to copy to: org/workspace or an id.",
    commands: ["copy-pipeline"],
  },
  as: {
    type: "string",
    value: "name",
    help: "The copy's name; default the pipeline's.",
    commands: ["copy-pipeline"],
  },
  status: {
    type: "string",
    multiple: true,
    commas: true,
    value: "status",
    help: `Runs with one of these statuses (${ENUMS.WorkflowStatus?.join(", ")}); watch's default SUBMITTED,RUNNING.`,
    commands: RUN_LISTS,
  },
  // A launch's labels; for runs and watch, a filter.
  labels: {
    ...LAUNCH_OPTIONS.labels,
    help: `${LAUNCH_OPTIONS.labels.help} runs, watch: runs with one of these labels.`,
    commands: [...LAUNCH_OPTIONS.labels.commands, ...RUN_LISTS],
  },
  label: { ...LAUNCH_OPTIONS.label, commands: [...LAUNCH_OPTIONS.label.commands, ...RUN_LISTS] },
  search: {
    type: "string",
    value: "words",
    help: "More search words, as the web interface takes them: part of a run name, userName:bob...",
    commands: RUN_LISTS,
  },
  after: {
    type: "string",
    value: "time",
    help: "Runs submitted (report: by --by) at or after this: an instant (2024-05-10T09:00:00Z), a day (2024-05-10), or a duration ago (24h, 7d).",
    commands: [...RUN_LISTS, "report"],
  },
  before: {
    type: "string",
    value: "time",
    help: "Runs submitted (report: by --by) at or before this, as --after takes it.",
    commands: [...RUN_LISTS, "report"],
  },
  organization: {
    type: "string",
    value: "name",
    help: "Every workspace of this organization instead of --workspace.",
    commands: RUN_LISTS,
  },
  team: {
    type: "boolean",
    help: "The participant named is a team of the workspace's organization, not a user.",
    commands: ["participants"],
  },
  json: {
    type: "boolean",
    help: "One JSON line per resource: {kind, name, workspace, action, changes: [{field, from, to}], reason, at}; apply adds its outcome.",
    commands: ["plan", "apply"],
  },
  "detailed-exitcode": {
    type: "boolean",
    help: "Exit 6 when the plan has changes to apply, 0 when there is nothing to do (a CI drift check).",
    commands: ["plan"],
  },
  targets: {
    type: "string",
    multiple: true,
    commas: true,
    value: "kinds",
    help: "Only these kinds of the files (compute-envs,pipelines), as seqerakit's --targets.",
    commands: ["plan", "apply"],
  },
  delete: {
    type: "boolean",
    help: "Delete what the files name, dependents first, instead of creating or updating it.",
    commands: ["plan", "apply"],
  },
  kinds: {
    type: "string",
    multiple: true,
    commas: true,
    value: "kinds",
    help: "Export only these kinds (labels,credentials,secrets,compute-envs,pipelines,datasets).",
    commands: ["export"],
  },
  timeout: {
    type: "string",
    value: "duration",
    help: "Give up after this long (90s, 30m, 2h): the whole command, lookups, retries, pages and waits included; exit code 3.",
    commands: API_COMMANDS,
  },
  "poll-interval": {
    type: "string",
    value: "duration",
    help: "First wait between two polls of a run or compute environment (default 5s; it grows while nothing changes).",
    commands: [...WAITING, "watch", "compute-envs"],
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
  handlers: {
    type: "string",
    value: "module",
    help: "A JavaScript module whose default export sets handlers: { OperationId: (request) => answer }, or (emulator) => {...}.",
    commands: ["emulator"],
  },
  "rate-limit": {
    type: "string",
    value: "calls/s",
    help: "Calls per second each token may make (default 20, the service's), or off.",
    commands: ["emulator"],
  },
  "rate-limit-mode": {
    type: "string",
    value: "mode",
    help: "cycles (default, as the service: a call over the limit waits up to 500 ms for the next second) or sliding (refused at once: the strict worst case).",
    commands: ["emulator"],
  },
  faults: {
    type: "string",
    value: "kind=share,...",
    help: "Faults in front of the service: shares (0-1) of requests answered 503 (unavailable), cut (reset) or answered 429 (rate-limited); delay=<ms> before each answer; seed=<n> replays the draws. E.g. unavailable=0.1,rate-limited=0.2,seed=7.",
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
    commands: [...API_COMMANDS, "emulator", "operations"],
  },
  version: {
    type: "boolean",
    help: "Print the client's version and the API schema release it was built from.",
    commands: [],
  },
} as const satisfies Record<string, OptionSpec>;

export type OptionName = keyof typeof OPTIONS;

export type OptionValues = {
  [K in OptionName]?: (typeof OPTIONS)[K] extends { type: "boolean" }
    ? boolean
    : (typeof OPTIONS)[K] extends { multiple: true }
      ? string[]
      : string;
};
