/**
 * What tw (the official CLI) users type, and what does it here: `seqera-api runs` should point
 * at launch/relaunch/wait/logs/cancel, not at the operation whose name is nearest in spelling.
 */

const LIFECYCLE =
  "seqera-api launch <pipeline>, relaunch <workflowId>, wait <workflowId>, logs <workflowId>, cancel <workflowId>";

/** tw's `runs` subcommands, by name. */
const RUNS: Readonly<Record<string, string>> = {
  list: "seqera-api ListWorkflows --paginate",
  view: "seqera-api DescribeWorkflow -p workflowId=<id>",
  relaunch: "seqera-api relaunch <workflowId> [--no-resume]",
  cancel: "seqera-api cancel <workflowId>",
  delete: "seqera-api DeleteWorkflow -p workflowId=<id>",
  tasks: "seqera-api ListWorkflowTasks -p workflowId=<id> --paginate",
};

/** tw's top-level commands (but `launch` and `datasets`, which are ours too) and ours for them. */
const COMMANDS: Readonly<Record<string, string>> = {
  runs: LIFECYCLE,
  run: LIFECYCLE,
  pipelines: "seqera-api ListPipelines, or seqera-api launch <pipeline>",
  "compute-envs": "seqera-api ListComputeEnvs",
  credentials: "seqera-api ListCredentials",
  labels: "seqera-api ListLabels",
  secrets: "seqera-api ListPipelineSecrets",
  workspaces: "seqera-api ListWorkspaces -p orgId=<id>, or seqera-api ListWorkspacesUser",
  organizations: "seqera-api ListOrganizations",
  participants: "seqera-api ListWorkspaceParticipants",
  members: "seqera-api ListOrganizationMembers",
  actions: "seqera-api ListActions",
  studios: "seqera-api ListDataStudios",
  "data-links": "seqera-api ListDataLinks",
};

/**
 * The usage line for a tw command word (`runs`, `runs list`, `pipelines`...), or undefined when
 * the first word is not one.
 */
export function twCommandHint(args: readonly string[]): string | undefined {
  const [word, sub] = args;
  if (word === undefined || !Object.hasOwn(COMMANDS, word)) return undefined;
  const runs = word === "runs" || word === "run";
  if (runs && sub !== undefined && Object.hasOwn(RUNS, sub)) {
    return `seqera-api has no "${word} ${sub}" command: use ${RUNS[sub]}.`;
  }
  return `seqera-api has no "${word}" command: use ${COMMANDS[word]} (each with --help).`;
}
