/**
 * Finding an operation from the shell: the list of operations by word, suggestions for the
 * names users try, every tw command mapped to an operation that exists, and --help showing
 * what an answer holds. None of it calls the API.
 */
import { beforeAll, describe, expect, test } from "vitest";
import { operations } from "../../generated/operations.js";
import { EXIT } from "../../src/cli/exit-codes.js";
import { TW_COMMANDS, twCommandHint } from "../../src/cli/tw-commands.js";
import { COMMAND_WORDS } from "../../src/cli/commands.js";
import { sharedBuild, runCli, type BuiltCli } from "./cli.js";

let cli: BuiltCli;
beforeAll(async () => {
  cli = await sharedBuild();
});
const seqera = (args: string[]) => runCli(cli.main, args, { env: {} });

describe("seqera-api operations", () => {
  test("alone: every operation, one a line, with its method, path and summary", async () => {
    const result = await seqera(["operations"]);
    expect(result).toMatchObject({ code: EXIT.ok, stderr: "" });
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(Object.keys(operations).length);
    expect(lines).toContainEqual(
      expect.stringMatching(/^ListWorkflows +GET \/workflow +List workflows$/),
    );
  });

  test.each([
    [["studio", "stop"], ["StopDataStudio"]],
    [
      ["team", "member"],
      [
        "CreateOrganizationTeamMember",
        "DeleteOrganizationTeamMember",
        "ListOrganizationTeamMembers",
      ],
    ],
    [["browse"], ["ExploreDataLink", "ExploreDataLinkTree", "ExploreDataLinkWithPath"]],
    // A tag: every operation tagged data-links.
    [
      ["data-links", "upload"],
      [
        "FinishDataLinkUpload",
        "FinishDataLinkUploadWithPath",
        "GenerateDataLinkUploadUrl",
        "GenerateDataLinkUploadUrlWithPath",
      ],
    ],
  ])("%j: the operations about every word", async (words, expected) => {
    const result = await seqera(["operations", ...words]);
    expect(result).toMatchObject({ code: EXIT.ok, stderr: "" });
    expect(
      result.stdout
        .trimEnd()
        .split("\n")
        .map((line) => line.split(" ")[0]),
    ).toEqual(expected);
  });

  test("no operation about the words: exit 2 and what to try", async () => {
    const result = await seqera(["operations", "zebra"]);
    expect(result).toMatchObject({ code: EXIT.usage, stdout: "" });
    expect(result.stderr).toBe(
      'seqera-api: No operation is about "zebra": try fewer words, or seqera-api operations alone for all of them.\n',
    );
  });
});

test.each([
  ["StopStudio", "StopDataStudio"],
  ["ListStudios", "ListDataStudios, ListDataStudioCheckpoints, ListDataStudioTemplates"],
  ["ListTeams", "ListOrganizationTeams, ListOrganizationTeamMembers, ListWorkspacesByTeam"],
  ["AddTeamMember", "CreateOrganizationTeamMember"],
  ["BrowseDataLink", "ExploreDataLink, ExploreDataLinkTree, ExploreDataLinkWithPath"],
  ["ListWorkflow", "ListWorkflows, ListWorkflowTasks"],
])("an unknown operation %s: did you mean %s", async (name, offered) => {
  const result = await seqera([name]);
  expect(result).toMatchObject({ code: EXIT.usage, stdout: "" });
  expect(result.stderr).toBe(`seqera-api: Unknown operation "${name}". Did you mean ${offered}?\n`);
});

test("every operation a tw command maps to exists, with the path parameters the hint names", () => {
  for (const command of TW_COMMANDS) {
    const hint = twCommandHint(command.split(" "))!;
    const use = /use (seqera-api \S+)(.*)\.$/.exec(hint)!;
    const name = use[1]!.slice("seqera-api ".length);
    if (COMMAND_WORDS.has(name)) continue;
    const info = Object.values(operations).find((o) => o.operationId === name);
    expect(info, `${command} → ${name}`).toBeDefined();
    const named = [...use[2]!.matchAll(/-p (\w+)=/g)].map((m) => m[1]);
    // The first operation's parameters (a hint may name a second, after "or").
    const own = named.slice(0, info!.pathParams.length);
    expect(own.sort(), `${command} → ${name}`).toEqual([...info!.pathParams].sort());
  }
});

test("--help shows what the answer holds, enum values included", async () => {
  const result = await seqera(["DescribeDataStudio", "--help"]);
  expect(result).toMatchObject({ code: EXIT.ok, stderr: "" });
  expect(result.stdout).toMatch(
    /\n  statusInfo\.status +DataStudioStatus \(starting\|running\|stopping\|stopped\|errored\|building\|buildFailed\)\n/,
  );
  const list = await seqera(["ListDataLinks", "--help"]);
  expect(list.stdout).toMatch(/\n  dataLinks\[\]\.status +DataLink\.Status \(VALID\|INVALID\)\n/);
});

test("--help lists a discriminated body field's variants, and -F takes their fields", async () => {
  const help = await seqera(["UpdateCredentials", "--help"]);
  expect(help).toMatchObject({ code: EXIT.ok, stderr: "" });
  expect(help.stdout).toMatch(
    /\n  credentials\.keys\.discriminator=aws +AwsSecurityKeys +with accessKey, assumeRoleArn, externalId, mode, secretKey\n/,
  );
  // Port 9 is refused before any request: the fields passed the body check, so exit 5, not 2.
  const call = await runCli(
    cli.main,
    [
      "UpdateCredentials",
      "-p",
      "credentialsId=c1",
      "-F",
      "credentials.name=aws-prod",
      "-F",
      "credentials.provider=aws",
      "-F",
      "credentials.keys.discriminator=aws",
      "-F",
      "credentials.keys.accessKey=AKIA",
    ],
    { env: { TOWER_ACCESS_TOKEN: "token-not-checked", TOWER_API_ENDPOINT: "http://127.0.0.1:9" } },
  );
  expect(call.stderr).not.toMatch(/has no field/);
  expect(call.code).toBe(EXIT.failure);
});
