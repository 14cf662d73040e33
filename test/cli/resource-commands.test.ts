/**
 * `teams add`, `members add`, `participants set-role` and `data-links browse`: what each prints,
 * that a second run changes nothing, and that mistakes are told in the CLI's terms.
 */
import { type Emulator } from "seqera-api-client/testing";
import { ENUMS } from "../../generated/enums.js";
import { afterAll, beforeAll, expect, test } from "vitest";
import { EXIT } from "../../src/cli/exit-codes.js";
import { runCli, type BuiltCli, cliAndEmulator } from "./cli.js";

let cli: BuiltCli;
let emulator: Emulator;
beforeAll(async () => {
  ({ cli, emulator } = await cliAndEmulator({
    rateLimit: false,
    seed: {
      workspaces: [{ org: "acme", name: "prod", id: 42 }],
      members: [{ org: "acme", userName: "ana", email: "ana@acme.org" }],
      dataLinks: [
        {
          resourceRef: "s3://raw",
          publicAccessible: true,
          workspaceId: 42,
          objects: { "a/x.txt": 3, "a/b/y.txt": 4 },
        },
      ],
    },
  }));
});
afterAll(() => emulator?.close());

const seqera = (args: string[], workspace?: string) =>
  runCli(cli.main, args, {
    env: {
      TOWER_API_ENDPOINT: emulator.url,
      TOWER_ACCESS_TOKEN: emulator.token,
      ...(workspace && { TOWER_WORKSPACE_ID: workspace }),
    },
  });
const json = (stdout: string) => JSON.parse(stdout) as unknown;

test("members add, teams add and participants set-role: the second run changes nothing", async () => {
  const members = await seqera(["members", "add", "acme", "bo@acme.org", "ANA@acme.org"]);
  expect(members).toMatchObject({ code: EXIT.ok, stderr: "" });
  expect(json(members.stdout)).toEqual({ org: "acme", added: ["bo@acme.org"] });
  const team = await seqera(["teams", "add", "acme/bioinfo", "ana", "BO@acme.org"]);
  expect(json(team.stdout)).toEqual({
    team: "acme/bioinfo",
    created: true,
    added: ["ana", "BO@acme.org"],
  });
  const again = await seqera(["teams", "add", "acme/bioinfo", "ana@acme.org", "bo"]);
  expect(json(again.stdout)).toEqual({ team: "acme/bioinfo", created: false, added: [] });
  const set = ["participants", "set-role", "bioinfo", "maintain", "--team"];
  expect(json((await seqera(set, "acme/prod")).stdout)).toEqual({
    team: "bioinfo",
    role: "maintain",
    done: "added",
  });
  expect(json((await seqera([...set, "-w", "acme/prod"])).stdout)).toMatchObject({
    done: "unchanged",
  });
  const [bioinfo] = emulator.state.teams.all();
  expect(bioinfo!.memberIds).toHaveLength(2);
  expect(emulator.state.participants.all().filter((p) => p.teamId === bioinfo!.id)).toEqual([
    expect.objectContaining({ workspaceId: 42, role: "maintain" }),
  ]);
});

test("data-links browse: the objects under a folder at any depth, and their bytes", async () => {
  const result = await seqera(["data-links", "browse", "raw", "a"], "acme/prod");
  expect(result).toMatchObject({ code: EXIT.ok, stderr: "" });
  expect(json(result.stdout)).toMatchObject({
    name: "raw",
    objects: [
      { path: "a/x.txt", size: 3 },
      { path: "a/b/y.txt", size: 4 },
    ],
    bytes: 7,
  });
});

test("a role the release does not name: exit 2; refused before any request where it names them", async () => {
  const before = emulator.requests.length;
  const result = await seqera(["participants", "set-role", "ana", "boss", "-w", "acme/prod"]);
  expect(result).toMatchObject({ code: EXIT.usage, stdout: "" });
  // The roles come from the release's WspRole; a release without that enum leaves them to the
  // service, which refuses the role itself.
  const roles = ENUMS.WspRole;
  if (roles) {
    expect(result.stderr).toBe(`seqera-api: Role "boss": one of ${roles.join(", ")}.\n`);
    expect(emulator.requests.length).toBe(before);
  } else {
    expect(result.stderr).toContain("Invalid participant role 'boss'");
  }
});

test.each([
  [
    ["participants", "set-role", "ana", "launch"],
    "seqera-api: participants set-role sets a role in a workspace: give -w <org>/<workspace> (or TOWER_WORKSPACE_ID).\n",
  ],
  [
    ["members", "add", "acme/bioinfo", "ana"],
    "seqera-api: acme/bioinfo is a team: add its members with seqera-api teams add acme/bioinfo <user>...\n",
  ],
  [["members", "add", "acme"], "seqera-api: Usage: seqera-api members add <org> <user>...\n"],
])("%j: exit 2, no request", async (args, stderr) => {
  const before = emulator.requests.length;
  const result = await seqera(args);
  expect(result).toMatchObject({ code: EXIT.usage, stdout: "", stderr });
  expect(emulator.requests.length).toBe(before);
});

test("a team without its organization: exit 2, saying how to name it", async () => {
  const result = await seqera(["teams", "add", "bioinfo"]);
  expect(result.stderr).toBe(
    'seqera-api: Team "bioinfo": name a team as "organization/team", e.g. "acme/bioinfo"\n',
  );
  expect(result.code).toBe(EXIT.usage);
});
