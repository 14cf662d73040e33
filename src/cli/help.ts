import { INSECURE_HTTP_ENV, REDIS_ENV } from "./client-options.js";
import type { CommandName } from "./commands.js";
import { OPTIONS } from "./options.js";
import { EXIT_MEANINGS } from "./exit-codes.js";
import { RESOURCE_USAGE } from "./resource-commands.js";

const INTRO = `seqera-api: the Seqera Platform API from the shell.

Usage:
  seqera-api <OperationId> [options]        seqera-api ListWorkflows -q max=5
  seqera-api <METHOD> <path> [options]      seqera-api GET /workflow/4Bi5xBK6E2Nbhj
  seqera-api <OperationId> --help           its parameters, body fields and response
  seqera-api operations [word...]           the operations, or those about words (studio, team)
  seqera-api launch <pipeline> [--wait]     launch a Launchpad pipeline by name (or a URL)
  seqera-api relaunch <workflowId>          resume a run (--no-resume: run it again)
  seqera-api wait <workflowId>              wait for a run to end
  seqera-api logs <workflowId> [--follow]   a run's console output
  seqera-api cancel <workflowId>            cancel a run
  seqera-api runs [--status S] [--after T]  runs with labels and elapsedMs, as JSON lines
  seqera-api watch [--organization O]       follow the runs of many workspaces until they end
  seqera-api failed-tasks <workflowId>      failed tasks: exit status, last lines of stderr
  seqera-api copy-pipeline <name> --to W    copy a Launchpad pipeline to another workspace
  seqera-api datasets add <name> <file>     upload a CSV/TSV as a dataset
  seqera-api pipelines versions list <p>    a Launchpad pipeline's versions (also add, default)
  seqera-api pipelines update <pipeline>    change a pipeline, keeping its labels
  seqera-api report --after 7d              runs' status, times, cost and CPU hours
  seqera-api teams add <org>/<team> [user]  a team and its members, each added if absent
  seqera-api members add <org> <user>...    organization members, each added if absent
  seqera-api participants set-role <n> <r>  a user's (--team: a team's) role in the workspace
  seqera-api data-links browse <name> [dir] the objects and bytes under a folder, any depth
  seqera-api compute-envs wait <name>       wait for a compute environment to be AVAILABLE
  seqera-api secrets set <name> --from-file -   create or update a pipeline secret from stdin
  seqera-api credentials set <name> --from-file keys.json   create or update credentials
  seqera-api plan <file.yml>...             what applying seqerakit's files would change
  seqera-api apply <file.yml>...            create, update or delete what the files say
  seqera-api export -w org/workspace        a workspace's resources as such a file
  seqera-api emulator [--port N]            serve a local emulator of the API
  seqera-api --version

Operation ids match in any case; a path may be the template (/workflow/{workflowId}, with
-p workflowId=...) or filled in (/workflow/4Bi5xBK6E2Nbhj), and may end with ?name=value.
JSON goes to stdout: indented on a terminal, one line in a pipe. Every failure is one line
on stderr, and the exit code says which kind.`;

const USAGE: Record<Exclude<CommandName, "call">, string> = {
  plan: `seqera-api plan <file.yml|->... [--targets kinds] [--delete] [--json] [--detailed-exitcode]

Reads files in seqerakit's format (several files and --- documents; $VAR and \${VAR} from the
environment) and prints, for each resource they name, in order of dependence: create, update
(field by field, secret values redacted), replace (and why), delete (--delete), unchanged,
or launch (a launch entry: each apply launches). Nothing is changed. Resources are named,
never given by id: workspace: acme/genomics, compute-env: aws-eu. See
docs/workspaces-as-code.md.`,
  apply: `seqera-api apply <file.yml|->... [--targets kinds] [--delete] [--json]

Plans as plan does, prints the plan, then applies it: updates in place where the API can (the id
kept), replaces where it cannot. Progress goes to stderr. A failure stops there and says what was
applied, what failed and what was not attempted; apply again completes the rest.`,
  export: `seqera-api export --workspace org/workspace [--kinds kinds]

Writes the workspace's labels, credentials, secrets, compute environments, pipelines and
datasets as YAML in seqerakit's format, secret values as $VARIABLES to set: apply it to another
workspace to copy them.`,
  launch: `seqera-api launch <pipeline> [options]
seqera-api launch [pipeline] --rows <file|-> [options]

Launches a pipeline of the workspace's Launchpad by name (shared from the organization too),
with its saved launch configuration, each option replacing a saved setting (params are merged
into the saved ones); or a repository URL, with the compute environment's defaults. Prints
{"workflowId", "createdLabels", "run"}: createdLabels the labels it created, the run when --wait
was given (past --timeout, as last seen). With --wait the exit code is the run's: 0 SUCCEEDED,
1 FAILED or CANCELLED, 3 --timeout first. The options are tw launch's.
With --rows, launches once per row of a CSV file (header row) or JSON lines, from one process:
columns named as the options (run-name, params-file, labels...), plus pipeline and key. Prints
a JSON line per row as each is answered, {"row", "key", "pipeline", "workflowId",
"createdLabels"} or {"row", "key", "pipeline", "error", "exitCode"}; exit 0 when all launched,
else the first failed row's code.`,
  relaunch: `seqera-api relaunch <workflowId> [options]

Resumes a run: the same launch, session and work directory, from the commit it ran, so that
its finished tasks are cached. With --no-resume, runs its launch again from scratch. Options
replace the run's settings as for launch (--work-dir only with --no-resume). Prints
{"workflowId", "createdLabels", "resumed", "run"} as launch does (resumed with
--resume-if-available); with --wait the exit code is the new run's.`,
  cancel: `seqera-api cancel <workflowId>

Cancels a run that has not ended, and prints {"workflowId", "cancelled": true}. A run of
another workspace, or one that does not exist, answers 403: check --workspace (or
TOWER_WORKSPACE_ID).`,
  wait: `seqera-api wait <workflowId> [options]

Polls the run until it ends and prints it: exit 0 SUCCEEDED, 1 FAILED or CANCELLED (with its
error message and failed tasks on stderr), 3 --timeout first.`,
  runs: `seqera-api runs [--status FAILED] [--label name] [--after 24h] [--organization acme]

Prints the runs of the workspace (or of every workspace of --organization), newest first, one
JSON line each: the run with its labels, elapsedMs (start to end, or to now) and workspaceId.
The filters go to the service's search; --after and --before are exact to the instant (the
service takes whole days: the rest of the day is left out here).`,
  watch: `seqera-api watch [--organization acme] [--status ...] [--label ...] [options]

Follows the runs of the workspace (or of every workspace of --organization), by default those
SUBMITTED or RUNNING: one list call per workspace per poll, within the token's rate limit. Prints
one JSON line per change, {"change": "seen" | "status" | "gone", "previousStatus", "run"}, and
ends once every run it saw ended (a status this release does not list is not an end): exit 0
when all ended SUCCEEDED (or none was going), 1 when one ended FAILED, CANCELLED or UNKNOWN, 3
--timeout first. A workspace answering 403 or 404 is said on stderr and no longer watched; the
others are, and the exit code is then its error's (4 for a 403) unless a run failed.`,
  "failed-tasks": `seqera-api failed-tasks <workflowId> [--lines 20]

Prints each task of the run that ended FAILED, one JSON line each: the task (name, exitStatus,
errorMessage...) with stderr, the last --lines lines of its standard error (.command.err).`,
  "copy-pipeline": `seqera-api copy-pipeline <pipeline> --to org/workspace [--as name]

Copies a Launchpad pipeline of the workspace (-w) to another with its launch configuration: the
compute environment is the AVAILABLE one of the same name there, else its primary, and the copy
runs in that compute environment's work directory. Prints {"pipelineId", "computeEnvId",
"computeEnvBy": "name" | "primary"}.`,
  logs: `seqera-api logs <workflowId> [--follow]

Prints the run's console output (its nf-<workflowId>.txt file). With --follow, prints the
console log as it grows, each line once, until the run has ended.`,
  datasets: `seqera-api datasets add <name> <file.csv|file.tsv> [--header] [-d description]

Creates the dataset (or adds a version to the one of that name) and prints
{"datasetId", "version", "url"}: the url is what a pipeline's input param takes.`,
  pipelines: `seqera-api pipelines versions list <pipeline> [--published | --drafts]
seqera-api pipelines versions add <pipeline> --revision <ref> [--version-name <name>] [--default]
seqera-api pipelines versions default <pipeline> --version-name <name> | --version-id <id>
seqera-api pipelines update <pipeline> [--revision <ref>] [-d text] [--labels a,b] [--params-file f]

A Launchpad pipeline (by name in the workspace) and its versions. versions list prints each
version as a JSON line: {"pipelineId", "versionId", "name", "draft", "isDefault", "revision",
"dateCreated"} (a draft has no name). versions add makes a version of the pipeline at a
revision (a draft, published with --version-name, the default with --default) and prints it.
versions default makes a published version the default, which a launch without
--version-name runs, and prints {"pipelineId", "versionId", "isDefault": true}. update
changes the pipeline and keeps what is not named, its labels included (the API removes the
labels an update does not send); a changed launch is a new draft version. It prints
{"pipelineId", "versionId"}.`,
  report: `seqera-api report --after <when> [--before <when>] [--by completion|submission]

The runs of the workspace that completed (or, with --by submission, were submitted) in the
window, one JSON line each: {"workflowId", "runName", "pipeline", "status", "submit",
"start", "complete", "durationMs", "cost", "cpuHours"}. A when is an ISO 8601 instant, a UTC day
(YYYY-MM-DD) or a duration ago (24h, 7d).`,
  teams: `${RESOURCE_USAGE.teams}

Creates the team when the organization has none of that name, and adds the users (user names
or e-mails, members of the organization) that are not in it yet. Prints {"team", "created",
"added"}: run twice, the second run creates and adds nothing.`,
  members: `${RESOURCE_USAGE.members}

Adds the users (user names or e-mails, compared in any case) that are not members of the
organization yet. Prints {"org", "added"}.`,
  participants: `${RESOURCE_USAGE.participants}

Gives the user (a member of the workspace's organization), or with --team the team, the role
in the workspace: adds them as a participant when absent, sets the role when it differs.
Prints {"user" or "team", "role", "done"}: done is added, changed or unchanged.`,
  "data-links": `${RESOURCE_USAGE["data-links"]}

The data link of the workspace with that name, with every object under the folder (the whole
bucket without one), at any depth, and their bytes: {..., "objects": [{"path", "size"}],
"bytes"}. Folders are browsed one at a time, a page at a time.`,
  "compute-envs": `${RESOURCE_USAGE["compute-envs"]}

Polls the workspace's compute environment of that name until it is AVAILABLE, and prints it:
exit 0 AVAILABLE, 1 when it can no longer be (ERRORED, INVALID, DISABLED, DELETING, DELETED;
the service's message on stderr), 3 --timeout first. It is printed as last seen whatever the end.`,
  secrets: `${RESOURCE_USAGE.secrets}

Creates the workspace's pipeline secret of that name, or sets the value of the one there. The
value is read from the file, or from standard input with -, without one final line end; never
from an argument, which process listings and shell history show. Prints {"secretId", "name",
"created"}, never the value; no error line says it.`,
  credentials: `${RESOURCE_USAGE.credentials}

Replaces the keys of the workspace's credentials of that name (their provider and name kept),
or creates them with --provider. The keys are a JSON object read from the file, or standard
input with -: {"accessKey": "...", "secretKey": "..."} for aws. Prints {"credentialsId",
"created", "computeEnvs"}: the compute environments using them, with their status. The keys
are never printed, nor said in an error line.`,
  operations: `seqera-api operations [word...]

Lists the API's operations, one a line: operationId, method and path, summary. Words keep those
about every word: a word of the operation's name, tag or path, or one users say for it
(studio, team, member, browse, add, run...): seqera-api operations studio stop.`,
  emulator: `seqera-api emulator [--port N] [--seed file.json] [--handlers module.mjs]
                    [--rate-limit calls/s|off] [--rate-limit-mode cycles|sliding] [--faults kind=share,...]

A local emulator of the Seqera Platform API, built from the same schema, keeping state. Listens
on 127.0.0.1 (--port, else a free port) until SIGINT or SIGTERM, and prints on stdout
  TOWER_API_ENDPOINT=http://127.0.0.1:<port>
  TOWER_ACCESS_TOKEN=<a token valid for this emulator only>
so that another shell can use it:  seqera-api emulator > emulator.env &  set -a; . ./emulator.env
Runs advance one step each time they are described or listed, so polling clients see them end.
--seed takes the emulator's seed (organizations, workspaces, pipelines, compute envs, runs, ...).
--handlers answers chosen operations with your own code: a module whose default export is
  { ListDataStudios: (request) => ({ status: 200, body: {...} }) }, or (emulator) => {...}
  (setHandler, state); answers are checked against the operation's response schema.
--rate-limit and --rate-limit-mode set each token's limit (default 20 calls/s, cycles, as the
  service); --faults makes shares of requests fail as the network in front of it may:
  seqera-api emulator --rate-limit 3 --faults unavailable=0.1,rate-limited=0.2,seed=7`,
};

const ENVIRONMENT = `Environment:
  TOWER_ACCESS_TOKEN         the access token (no flag: it would stay in shell history)
  TOWER_API_ENDPOINT         the API's URL (--url)
  TOWER_WORKSPACE_ID         the default workspace: an id, or org/workspace (--workspace)
  ${REDIS_ENV.padEnd(26)} a Redis URL: processes on one token share its rate limit
  ${INSECURE_HTTP_ENV.padEnd(26)} 1 to allow plain http:// to a host other than this one`;

/** The help of a command, or the general one; options listed from the parser's table. */
export function commandHelp(command: CommandName | undefined): string {
  const own = command === undefined ? "call" : command;
  const options = Object.entries(OPTIONS)
    .filter(
      ([, spec]) =>
        (spec.commands as readonly string[]).includes(own) || spec.commands.length === 0,
    )
    .map(([name, spec]) => {
      const short = "short" in spec ? `-${spec.short}, ` : "    ";
      const value = "value" in spec ? ` ${spec.value}` : "";
      return `  ${`${short}--${name}${value}`.padEnd(30)} ${spec.help}`;
    });
  const head = command === undefined || command === "call" ? INTRO : USAGE[command];
  const codes = Object.entries(EXIT_MEANINGS).map(
    ([code, meaning]) => `  ${code.padEnd(4)} ${meaning}`,
  );
  const tail =
    command === "emulator" || command === "operations"
      ? []
      : ["", ENVIRONMENT, "", "Exit codes:", ...codes];
  return [head, "", "Options:", ...options, ...tail, ""].join("\n");
}
