/**
 * What tw (the official CLI) users type, and what does it here: `seqera-api studios stop` should
 * point at StopDataStudio, not at the operation whose name is nearest in spelling. The table
 * follows tw's command tree (seqeralabs/tower-cli, src/main/java/io/seqera/tower/cli/commands)
 * and holds no schema, so that parsing a command line stays quick; a test checks that every
 * operation named here exists with these path parameters.
 */

const LIFECYCLE =
  "seqera-api launch <pipeline>, relaunch <workflowId>, wait <workflowId>, logs <workflowId>, cancel <workflowId>";

/**
 * tw's words whose command is ours too (src/cli/resource-commands.ts): `seqera-api teams add`,
 * `members add`, `participants set-role`, `data-links browse`.
 */
export const OWN_COMMANDS = {
  teams: "add",
  members: "add",
  participants: "set-role",
  "data-links": "browse",
  "compute-envs": "wait",
  credentials: "set",
  secrets: "set",
} as const;

const SET_ROLE =
  "seqera-api participants set-role <user|team> <role> [--team] -w <org>/<workspace> (adds the participant when absent)";

const CREDENTIALS_SET =
  "seqera-api credentials set <name> --provider <p> --from-file <keys.json|-> (creates or updates)";
const SECRETS_SET = "seqera-api secrets set <name> --from-file <file|-> (creates or updates)";

/** "tw word [sub [sub]]" → what does it here. */
const TW: Readonly<Record<string, string>> = {
  "runs list": "seqera-api runs [--status FAILED] [--after 24h] [--label name]",
  "runs view": "seqera-api DescribeWorkflow -p workflowId=<id>",
  "runs relaunch": "seqera-api relaunch <workflowId> [--no-resume]",
  "runs cancel": "seqera-api cancel <workflowId>",
  "runs delete": "seqera-api DeleteWorkflow -p workflowId=<id>",
  "runs tasks": "seqera-api ListWorkflowTasks -p workflowId=<id> --paginate",
  "runs labels": "seqera-api ApplyLabelsToWorkflows",
  "pipelines list": "seqera-api ListPipelines --paginate",
  "pipelines view": "seqera-api DescribePipeline -p pipelineId=<id>",
  "pipelines add": "seqera-api CreatePipeline",
  "pipelines delete": "seqera-api DeletePipeline -p pipelineId=<id>",
  "pipelines launch": "seqera-api launch <pipeline>",
  "pipelines labels": "seqera-api ApplyLabelsToPipelines",
  "compute-envs list": "seqera-api ListComputeEnvs",
  "compute-envs view": "seqera-api DescribeComputeEnv -p computeEnvId=<id>",
  "compute-envs add": "seqera-api CreateComputeEnv",
  "compute-envs delete": "seqera-api DeleteComputeEnv -p computeEnvId=<id>",
  "compute-envs primary": "seqera-api UpdateComputeEnvPrimary -p computeEnvId=<id>",
  "credentials list": "seqera-api ListCredentials",
  "credentials add": CREDENTIALS_SET,
  "credentials update": CREDENTIALS_SET,
  "credentials delete": "seqera-api DeleteCredentials -p credentialsId=<id>",
  "secrets list": "seqera-api ListPipelineSecrets",
  "secrets view": "seqera-api DescribePipelineSecret -p secretId=<id>",
  "secrets add": SECRETS_SET,
  "secrets update": SECRETS_SET,
  "secrets delete": "seqera-api DeletePipelineSecret -p secretId=<id>",
  "labels list": "seqera-api ListLabels --paginate",
  "labels add": "seqera-api CreateLabel",
  "labels update": "seqera-api UpdateLabel -p labelId=<id>",
  "labels delete": "seqera-api DeleteLabel -p labelId=<id>",
  "workspaces list":
    "seqera-api ListWorkspacesUser -p userId=<id>, or ListWorkspaces -p orgId=<id>",
  "workspaces view": "seqera-api DescribeWorkspace -p orgId=<id> -p workspaceId=<id>",
  "workspaces add": "seqera-api CreateWorkspace -p orgId=<id>",
  "workspaces update": "seqera-api UpdateWorkspace -p orgId=<id> -p workspaceId=<id>",
  "workspaces delete": "seqera-api DeleteWorkspace -p orgId=<id> -p workspaceId=<id>",
  "workspaces leave": "seqera-api LeaveWorkspaceParticipant -p orgId=<id> -p workspaceId=<id>",
  "organizations list": "seqera-api ListOrganizations",
  "organizations view": "seqera-api DescribeOrganization -p orgId=<id>",
  "organizations add": "seqera-api CreateOrganization",
  "organizations update": "seqera-api UpdateOrganization -p orgId=<id>",
  "organizations delete": "seqera-api DeleteOrganization -p orgId=<id>",
  "members list": "seqera-api ListOrganizationMembers -p orgId=<id> --paginate",
  "members update":
    "seqera-api UpdateOrganizationMemberRole -p orgId=<id> -p memberId=<id> -F role=<role>",
  "members delete": "seqera-api DeleteOrganizationMember -p orgId=<id> -p memberId=<id>",
  "members leave": "seqera-api LeaveOrganization -p orgId=<id>",
  "collaborators list": "seqera-api ListOrganizationCollaborators -p orgId=<id> --paginate",
  "participants list":
    "seqera-api ListWorkspaceParticipants -p orgId=<id> -p workspaceId=<id> --paginate",
  "participants add": SET_ROLE,
  "participants update": SET_ROLE,
  "participants delete":
    "seqera-api DeleteWorkspaceParticipant -p orgId=<id> -p workspaceId=<id> -p participantId=<id>",
  "participants leave": "seqera-api LeaveWorkspaceParticipant -p orgId=<id> -p workspaceId=<id>",
  "teams list": "seqera-api ListOrganizationTeams -p orgId=<id> --paginate",
  "teams view": "seqera-api DescribeOrganizationTeam -p orgId=<id> -p teamId=<id>",
  "teams update": "seqera-api UpdateOrganizationTeam -p orgId=<id> -p teamId=<id>",
  "teams delete": "seqera-api DeleteOrganizationTeam -p orgId=<id> -p teamId=<id>",
  "teams workspaces": "seqera-api ListWorkspacesByTeam -p orgId=<id> -p teamId=<id> --paginate",
  "teams members": "seqera-api ListOrganizationTeamMembers -p orgId=<id> -p teamId=<id> --paginate",
  "teams members add": "seqera-api teams add <org>/<team> <user>... (adds those not in it)",
  "teams members delete":
    "seqera-api DeleteOrganizationTeamMember -p orgId=<id> -p teamId=<id> -p memberId=<id>",
  "actions list": "seqera-api ListActions",
  "actions view": "seqera-api DescribeAction -p actionId=<id>",
  "actions add": "seqera-api CreateAction",
  "actions update": "seqera-api UpdateAction -p actionId=<id>",
  "actions delete": "seqera-api DeleteAction -p actionId=<id>",
  "studios list": "seqera-api ListDataStudios --paginate",
  "studios view": "seqera-api DescribeDataStudio -p sessionId=<id>",
  "studios add": "seqera-api CreateDataStudio",
  "studios add-as-new": "seqera-api CreateDataStudio -F initialCheckpointId=<id>",
  "studios start": "seqera-api StartDataStudio -p sessionId=<id>",
  "studios stop": "seqera-api StopDataStudio -p sessionId=<id>",
  "studios update": "seqera-api UpdateDataStudio -p sessionId=<id>",
  "studios delete": "seqera-api DeleteDataStudio -p sessionId=<id>",
  "studios extend": "seqera-api ExtendDataStudioLifespan -p sessionId=<id>",
  "studios checkpoints": "seqera-api ListDataStudioCheckpoints -p sessionId=<id> --paginate",
  "studios templates": "seqera-api ListDataStudioTemplates --paginate",
  "data-links list": "seqera-api ListDataLinks --paginate",
  "data-links add": "seqera-api CreateCustomDataLink",
  "data-links update": "seqera-api UpdateCustomDataLink -p dataLinkId=<id>",
  "data-links delete": "seqera-api DeleteCustomDataLink -p dataLinkId=<id>",
  "data-links download": "seqera-api DownloadDataLink -p dataLinkId=<id> -p filePath=<path>",
  "data-links upload": "seqera-api GenerateDataLinkUploadUrl -p dataLinkId=<id>",
  "access-tokens list": "seqera-api TokenList",
  "access-tokens add": "seqera-api CreateToken",
  "access-tokens delete": "seqera-api DeleteToken -p tokenId=<id>",
  "ssh-keys list": "seqera-api ListSshKeys",
  "ssh-keys add": "seqera-api CreateSshKey",
  "ssh-keys delete": "seqera-api DeleteSshKey -p keyId=<id>",
};

/** What a tw word alone points at, where more than its sub-commands' list helps. */
const WORDS: Readonly<Record<string, string>> = {
  run: LIFECYCLE,
};

/** tw's words that are commands here too: only their sub-commands in TW are pointed elsewhere. */
const OWN_WORDS: ReadonlySet<string> = new Set(["pipelines"]);

/** tw's top-level words (but `launch` and `datasets`, which are ours too). */
const TOP = new Set([...Object.keys(TW).map((key) => key.split(" ")[0]!), "run"]);

/** Every command line of tw this table maps, e.g. "studios stop" (for tests and listings). */
export const TW_COMMANDS: readonly string[] = Object.keys(TW);

/**
 * The line for a tw command (`runs`, `studios stop`, `teams members add`...), or undefined when
 * the first word is not one of tw's.
 */
export function twCommandHint(args: readonly string[]): string | undefined {
  const [word, ...rest] = args;
  if (word === undefined || !TOP.has(word)) return undefined;
  // `runs` is a command here too: only tw's sub-commands of it get a hint.
  if (word === "runs" && !Object.hasOwn(TW, `runs ${rest[0]}`)) return undefined;
  if (Object.hasOwn(OWN_COMMANDS, word)) {
    // Its own sub-command, or the help of the word (`seqera-api secrets --help`).
    const first = rest[0];
    if (first === OWN_COMMANDS[word as keyof typeof OWN_COMMANDS]) return undefined;
    if (first === "--help" || first === "-h") return undefined;
  }
  if (OWN_WORDS.has(word) && !Object.hasOwn(TW, `${word} ${rest[0]}`)) return undefined;
  const key = word === "run" ? "runs" : word;
  for (const length of [2, 1]) {
    const command = [key, ...rest.slice(0, length)].join(" ");
    if (rest.length >= length && Object.hasOwn(TW, command)) {
      return `seqera-api has no "${[word, ...rest.slice(0, length)].join(" ")}" command: use ${TW[command]}.`;
    }
  }
  if (Object.hasOwn(WORDS, word)) {
    return `seqera-api has no "${word}" command: use ${WORDS[word]} (each with --help).`;
  }
  const subs = Object.entries(TW)
    .filter(([command]) => command.split(" ").length === 2 && command.startsWith(`${key} `))
    .map(([command, use]) => `${command.split(" ")[1]}: ${commandOf(use)}`);
  return `seqera-api has no "${word}" command: its operations are ${subs.join(", ")} (each with --help).`;
}

/** The command or operation a line of TW names: "secrets set", "ListPipelineSecrets". */
function commandOf(use: string): string {
  return /^seqera-api ([A-Za-z][\w-]*(?: [a-z][\w-]*)?)/.exec(use)?.[1] ?? use;
}
