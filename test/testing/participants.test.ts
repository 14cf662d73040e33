import { afterEach, expect, test } from "vitest";
import { startEmulator, type Emulator } from "../../src/testing/index.js";
import { expectAnswer } from "./http.js";

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const seed = {
  workspaces: [
    { org: "acme", name: "prod", id: 42 },
    { org: "acme", name: "dev", id: 43 },
  ],
  members: [
    { org: "acme", userName: "ana" },
    { org: "acme", userName: "bo" },
    { org: "acme", userName: "cy", role: "collaborator" as const },
  ],
  teams: [{ org: "acme", name: "bioinfo", members: ["ana", "bo"] }],
  participants: [
    { workspace: "acme/prod", member: "ana", role: "admin" as const },
    { workspace: 42, member: "bo", role: "maintain" as const },
    { workspace: 42, member: "cy", role: "connect" as const },
    { workspace: 42, team: "bioinfo", role: "view" as const },
  ],
};

test("seeded participants answer with their workspace roles, teams as TEAM", async () => {
  emulator = await startEmulator({ rateLimit: false, seed });
  const orgId = emulator.state.workspaces.get(42)!.orgId;
  const { participants, totalSize } = await expectAnswer(
    emulator,
    "GET /orgs/{orgId}/workspaces/{workspaceId}/participants",
    `/orgs/${orgId}/workspaces/42/participants`,
  );
  expect(totalSize).toBe(4);
  expect(participants.map((p: any) => [p.type, p.userName ?? p.teamName, p.wspRole])).toEqual([
    ["MEMBER", "ana", "admin"],
    ["MEMBER", "bo", "maintain"],
    ["COLLABORATOR", "cy", "connect"],
    ["TEAM", "bioinfo", "view"],
  ]);
  const searched = await expectAnswer(
    emulator,
    "GET /orgs/{orgId}/workspaces/{workspaceId}/participants",
    `/orgs/${orgId}/workspaces/42/participants?search=bio`,
  );
  expect(searched.participants.map((p: any) => p.teamName)).toEqual(["bioinfo"]);
  // A workspace without seeded participants lists the organization's members.
  const dev = await expectAnswer(
    emulator,
    "GET /orgs/{orgId}/workspaces/{workspaceId}/participants",
    `/orgs/${orgId}/workspaces/43/participants`,
  );
  expect(dev.participants.map((p: any) => [p.userName, p.wspRole])).toEqual([
    ["emulated-user", "owner"],
    ["ana", "launch"],
    ["bo", "launch"],
    ["cy", "view"],
  ]);
});

test("teams and their members", async () => {
  emulator = await startEmulator({ rateLimit: false, seed });
  const orgId = emulator.state.workspaces.get(42)!.orgId;
  const { teams } = await expectAnswer(emulator, "GET /orgs/{orgId}/teams", `/orgs/${orgId}/teams`);
  expect(teams).toEqual([
    expect.objectContaining({ name: "bioinfo", membersCount: 2, description: null }),
  ]);
  const { members } = await expectAnswer(
    emulator,
    "GET /orgs/{orgId}/teams/{teamId}/members",
    `/orgs/${orgId}/teams/${teams[0].teamId}/members`,
  );
  expect(members.map((m: any) => m.userName)).toEqual(["ana", "bo"]);
});

test("a participant naming no member, or neither a member nor a team, is a seed mistake", async () => {
  await expect(
    startEmulator({
      seed: { ...seed, participants: [{ workspace: 42, member: "zed", role: "view" }] },
    }),
  ).rejects.toThrow("No member zed");
  await expect(
    startEmulator({ seed: { ...seed, participants: [{ workspace: 42, role: "view" }] } }),
  ).rejects.toThrow("give one of member and team");
});

test("a role set on a workspace's derived participant is kept, the other members kept too", async () => {
  emulator = await startEmulator({ rateLimit: false, seed });
  const orgId = emulator.state.workspaces.get(43)!.orgId;
  const list = `/orgs/${orgId}/workspaces/43/participants`;
  const before = await expectAnswer(
    emulator,
    `GET /orgs/{orgId}/workspaces/{workspaceId}/participants`,
    list,
  );
  const bo = before.participants.find((p: any) => p.userName === "bo");
  await expectAnswer(
    emulator,
    "PUT /orgs/{orgId}/workspaces/{workspaceId}/participants/{participantId}/role",
    `${list}/${bo.participantId}/role`,
    { body: { role: "maintain" }, status: 204 },
  );
  const after = await expectAnswer(
    emulator,
    `GET /orgs/{orgId}/workspaces/{workspaceId}/participants`,
    list,
  );
  expect(after.participants.map((p: any) => [p.userName, p.wspRole])).toEqual([
    ["emulated-user", "owner"],
    ["ana", "launch"],
    ["bo", "maintain"],
    ["cy", "view"],
  ]);
});
