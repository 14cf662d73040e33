import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  BadRequestError,
  ConfigurationError,
  NameNotFoundError,
  addMembers,
  find,
  setWorkspaceRole,
} from "../../src/index.js";
import type { Emulator } from "../../src/testing/index.js";
import { clientOf, seededEmulator, servedSince } from "./setup.js";

let emulator: Emulator;
beforeAll(async () => {
  emulator = await seededEmulator({
    members: [
      { org: "acme", userName: "ana", email: "ana@acme.org" },
      { org: "acme", userName: "bo", email: "bo@acme.org" },
      { org: "other", userName: "cy", email: "cy@other.org" },
    ],
    teams: [
      { org: "acme", name: "bioinfo", members: ["ana"] },
      { org: "acme", name: "chem" },
    ],
    dataLinks: [
      {
        resourceRef: "s3://acme-raw",
        workspaceId: 42,
        // Public: a link without credentials is INVALID, and is not browsed.
        publicAccessible: true,
        objects: {
          "runs/a.fastq.gz": 1000,
          "runs/b/b.fastq.gz": 2000,
          "runs/b/c/c.txt": 7,
          "other.txt": 5,
        },
      },
    ],
  });
});
afterAll(() => emulator.close());

const teamMembers = (name: string) =>
  emulator.state.teams
    .all()
    .find((t) => t.name === name)!
    .memberIds.map((id) => emulator.state.members.get(id)!.userName);

const roleOf = (workspaceId: number, team: string) => {
  const teamId = emulator.state.teams.all().find((t) => t.name === team)!.id;
  return emulator.state.participants
    .inWorkspace(workspaceId)
    .filter((p) => p.teamId === teamId)
    .map((p) => p.role);
};

describe("organizations and teams by name", () => {
  test('find.organization and find.team ("org/team") give the ids every team operation takes', async () => {
    const client = clientOf(emulator);
    const acme = await find.organization(client, "acme");
    await expect(find.team(client, "acme/bioinfo")).resolves.toMatchObject({
      name: "bioinfo",
      orgId: acme.orgId,
      orgName: "acme",
      membersCount: 1,
      teamId: String(emulator.state.teams.all()[0]!.id),
    });
    await expect(find.team(client, "acme/nothing", { optional: true })).resolves.toBeUndefined();
    await expect(find.organization(client, "acm", { optional: true })).resolves.toBeUndefined();
  });

  test("a missing team names the near ones of its organization; a missing organization is its own error", async () => {
    const client = clientOf(emulator);
    await expect(find.team(client, "acme/bioinf")).rejects.toThrow(
      'No team named "acme/bioinf"; did you mean "acme/bioinfo"?',
    );
    const error = await find.team(client, "acm/bioinfo", { optional: true }).catch((e) => e);
    expect(error).toBeInstanceOf(NameNotFoundError);
    expect(error).toMatchObject({
      kind: "organization",
      resourceName: "acm",
      candidates: ["acme"],
    });
    await expect(find.team(client, "bioinfo")).rejects.toThrow(
      new ConfigurationError(
        'Team "bioinfo": name a team as "organization/team", e.g. "acme/bioinfo"',
      ),
    );
  });
});

describe("membership set idempotently", () => {
  test("addMembers adds to a team those not in it, e-mails in any case, and again adds none", async () => {
    const client = clientOf(emulator);
    const from = emulator.requests.length;
    await expect(
      addMembers(client, "acme/bioinfo", ["ANA@acme.org", "bo@ACME.org", "bo"]),
    ).resolves.toEqual(["bo@ACME.org"]);
    expect(teamMembers("bioinfo")).toEqual(["ana", "bo"]);
    expect(servedSince(emulator, from)).toEqual([
      "ListOrganizations",
      "ListOrganizationTeams",
      "ListOrganizationTeamMembers",
      "CreateOrganizationTeamMember",
    ]);
    await expect(addMembers(client, "acme/bioinfo", ["ana", "bo@acme.org"])).resolves.toEqual([]);
    expect(teamMembers("bioinfo")).toEqual(["ana", "bo"]);
  });

  test("addMembers to an organization; a team's new member must be in its organization", async () => {
    const client = clientOf(emulator);
    await expect(addMembers(client, "acme", ["dee@acme.org", "Ana@Acme.org"])).resolves.toEqual([
      "dee@acme.org",
    ]);
    await expect(addMembers(client, "acme", "DEE@acme.org")).resolves.toEqual([]);
    expect(emulator.state.members.inOrg(1000).map((m) => m.email)).toContain("dee@acme.org");
    const error = await addMembers(client, "acme/chem", "cy@other.org").catch((e) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toMatch(/User 'cy@other\.org' is not a member/);
  });

  test("setWorkspaceRole adds the team as a participant, changes its role, and leaves it when it holds", async () => {
    const prod = clientOf(emulator).withWorkspace("acme/prod");
    await expect(setWorkspaceRole(prod, { team: "bioinfo" }, "maintain")).resolves.toBe("added");
    expect(roleOf(42, "bioinfo")).toEqual(["maintain"]);
    await expect(setWorkspaceRole(prod, { team: "bioinfo" }, "admin")).resolves.toBe("changed");
    const from = emulator.requests.length;
    await expect(setWorkspaceRole(prod, { team: "bioinfo" }, "admin")).resolves.toBe("unchanged");
    expect(servedSince(emulator, from)).toEqual(["ListWorkspaceParticipants"]);
    expect(roleOf(42, "bioinfo")).toEqual(["admin"]);
  });

  test("setWorkspaceRole for a user by e-mail in any case; a personal client is told to name a workspace", async () => {
    const dev = clientOf(emulator).withWorkspace("acme/dev");
    await expect(setWorkspaceRole(dev, { user: "BO@acme.org" }, "view")).resolves.toBe("changed");
    await expect(setWorkspaceRole(dev, { user: "bo" }, "view")).resolves.toBe("unchanged");
    const bo = emulator.state.members.all().find((m) => m.userName === "bo")!;
    expect(
      emulator.state.participants.inWorkspace(43).find((p) => p.memberId === bo.id)?.role,
    ).toBe("view");
    await expect(
      setWorkspaceRole(clientOf(emulator).withWorkspace(null), { user: "bo" }, "view"),
    ).rejects.toThrow(/pass client\.withWorkspace\("org\/workspace"\)/);
  });
});

test("added meanwhile by someone else (a 409): counted as in, and the role set all the same", async () => {
  const client = clientOf(emulator);
  // The lists answer as read before another job added them.
  let stale = 2;
  const empty = (key: string) => () =>
    stale-- > 0 ? { status: 200, body: { [key]: [], totalSize: 0 } } : undefined;
  emulator.setHandler("ListOrganizationTeamMembers", empty("members"));
  try {
    await expect(addMembers(client, "acme/bioinfo", "ana")).resolves.toEqual([]);
    emulator.setHandler("ListWorkspaceParticipants", empty("participants"));
    const prod = client.withWorkspace("acme/prod");
    await expect(setWorkspaceRole(prod, { team: "bioinfo" }, "view")).resolves.toBe("added");
  } finally {
    emulator.clearHandlers();
  }
  expect(teamMembers("bioinfo")).toEqual(["ana", "bo"]);
  expect(roleOf(42, "bioinfo")).toEqual(["view"]);
});

describe("data links: objects and bytes under a folder", () => {
  test("find.dataLink with `under` browses its folders page by page, at any depth", async () => {
    const client = clientOf(emulator);
    const from = emulator.requests.length;
    const link = await find.dataLink(client, "acme-raw", { under: "runs/" });
    expect(link).toMatchObject({ name: "acme-raw", bytes: 3007 });
    expect(link.objects).toEqual([
      { path: "runs/a.fastq.gz", size: 1000 },
      { path: "runs/b/b.fastq.gz", size: 2000 },
      { path: "runs/b/c/c.txt", size: 7 },
    ]);
    expect(servedSince(emulator, from)).toEqual([
      "ListDataLinks",
      "ExploreDataLinkWithPath",
      "ExploreDataLinkWithPath",
      "ExploreDataLinkWithPath",
    ]);
    await expect(find.dataLink(client, "acme-raw", { under: "" })).resolves.toMatchObject({
      bytes: 3012,
    });
    await expect(find.dataLink(client, "acme-raw", { under: "none" })).resolves.toMatchObject({
      objects: [],
      bytes: 0,
    });
  });
});
