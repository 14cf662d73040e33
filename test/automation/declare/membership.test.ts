import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { applyPlan, exportResources, planResources } from "../../../src/index.js";
import type { Emulator } from "../../../src/testing/index.js";
import { clientOf, seededEmulator, withEmulator } from "../setup.js";

/** seqerakit's members, teams (with members) and participants, as its templates write them. */
const FILE = readFileSync(new URL("members.yml", import.meta.url), "utf8");

const seeded = () =>
  seededEmulator({ members: [{ org: "acme", userName: "ana", email: "ana@acme.org" }] });

/**
 * The participants of the workspace the file names, with their roles (its first participant
 * added, the emulator also lists the organization's other members, as participants derived).
 */
const participants = (emu: Emulator, workspaceId: number) =>
  emu.state.participants.inWorkspace(workspaceId).flatMap((p) => {
    const member = p.memberId === undefined ? undefined : emu.state.members.get(p.memberId);
    const team = p.teamId === undefined ? undefined : emu.state.teams.get(p.teamId);
    const name = member?.email ?? team?.name;
    return name === "bioinfo" || name === "bo@acme.org" ? [`${name} ${p.role}`] : [];
  });

test("members, a team's members and participants: created in order, then nothing to do; a role changes in place", async () => {
  await withEmulator(seeded(), async (emu) => {
    const client = clientOf(emu);
    const plan = await planResources(client, [FILE]);
    expect(plan.steps.map((s) => `${s.action} ${s.kind} ${s.name}`)).toEqual([
      "create members acme/bo@acme.org",
      "create teams acme/bioinfo",
      "create participants bioinfo",
      "create participants bo@acme.org",
    ]);
    expect(plan.steps[1]!.changes).toContainEqual({
      field: "members",
      to: ["ana@acme.org", "bo@acme.org"],
    });
    expect(plan.steps[2]!.changes).toEqual([{ field: "wspRole", to: "admin" }]);
    expect((await applyPlan(client, plan)).failed).toBeUndefined();
    const team = emu.state.teams.all().find((t) => t.name === "bioinfo")!;
    expect(team.memberIds.map((id) => emu.state.members.get(id)!.email)).toEqual([
      "ana@acme.org",
      "bo@acme.org",
    ]);
    expect(participants(emu, 43)).toEqual(["bo@acme.org launch", "bioinfo admin"]);
    expect((await planResources(client, [FILE])).pending).toBe(0);

    // Exported (when asked for), then applied to another workspace: a copy with nothing to do.
    const exported = await exportResources(client.withWorkspace("acme/dev"), {
      kinds: ["participants"],
    });
    expect(exported).toBe(`participants:
  - name: emulated-user@example.com
    type: MEMBER
    role: owner
  - name: ana@acme.org
    type: MEMBER
    role: launch
  - name: bo@acme.org
    type: MEMBER
    role: launch
  - name: bioinfo
    type: TEAM
    role: admin
`);
    const prod = client.withWorkspace("acme/prod");
    expect((await applyPlan(prod, await planResources(prod, [exported]))).failed).toBeUndefined();
    expect((await planResources(prod, [exported])).pending).toBe(0);
    expect(await exportResources(prod, { kinds: ["participants"] })).toBe(exported);

    const changed = FILE.replace("role: LAUNCH", "role: MAINTAIN");
    const update = await planResources(client, [changed]);
    expect(update.steps.filter((s) => s.action !== "unchanged")).toMatchObject([
      {
        kind: "participants",
        name: "bo@acme.org",
        action: "update",
        changes: [{ field: "wspRole", from: "launch", to: "maintain" }],
      },
    ]);
    const ids = emu.state.participants.inWorkspace(43).map((p) => p.id);
    expect((await applyPlan(client, update)).failed).toBeUndefined();
    expect(participants(emu, 43)).toEqual(["bo@acme.org maintain", "bioinfo admin"]);
    expect(emu.state.participants.inWorkspace(43).map((p) => p.id)).toEqual(ids);

    // Dependents first: the participants, then the team, then the member.
    const deletion = await planResources(client, [changed], { delete: true });
    expect(deletion.steps.map((s) => `${s.action} ${s.kind} ${s.name}`)).toEqual([
      "delete participants bo@acme.org",
      "delete participants bioinfo",
      "delete teams acme/bioinfo",
      "delete members acme/bo@acme.org",
    ]);
    expect((await applyPlan(client, deletion)).failed).toBeUndefined();
    expect(participants(emu, 43)).toEqual([]);
    expect(emu.state.members.all().map((m) => m.email)).not.toContain("bo@acme.org");
  });
});

test("a team's members are made those of the file: the missing added, the others removed", async () => {
  const emu = await seededEmulator({
    members: [
      { org: "acme", userName: "ana", email: "ana@acme.org" },
      { org: "acme", userName: "bo", email: "bo@acme.org" },
    ],
    teams: [{ org: "acme", name: "bioinfo", members: ["ana"] }],
  });
  try {
    const client = clientOf(emu);
    const file =
      "teams:\n  - name: bioinfo\n    organization: acme\n    members: [bo]\n    on_exists: update\n";
    const plan = await planResources(client, [file]);
    expect(plan.steps).toMatchObject([
      { action: "update", changes: [{ field: "members", from: ["ana@acme.org"], to: ["bo"] }] },
    ]);
    const team = emu.state.teams.all().find((t) => t.name === "bioinfo")!;
    const [ana] = team.memberIds;
    const from = emu.requests.length;
    expect((await applyPlan(client, plan)).failed).toBeUndefined();
    // The team itself is left alone: only its members change.
    const teamPath = `/orgs/${team.orgId}/teams/${team.id}/members`;
    expect(
      emu.requests
        .slice(from)
        .filter((r) => r.method !== "GET")
        .map((r) => `${r.method} ${r.path}`),
    ).toEqual([`POST ${teamPath}`, `DELETE ${teamPath}/${ana}/delete`]);
    expect(
      emu.state.teams.get(team.id)!.memberIds.map((id) => emu.state.members.get(id)!.userName),
    ).toEqual(["bo"]);
    expect((await planResources(client, [file])).pending).toBe(0);
  } finally {
    await emu.close();
  }
});

test("a participant of a workspace the same files create is added once the workspace exists", async () => {
  await withEmulator(seeded(), async (emu) => {
    const client = clientOf(emu);
    const file = `workspaces:
  - name: lab
    organization: acme
    full-name: The lab
participants:
  - name: ana
    workspace: acme/lab
    role: MAINTAIN
`;
    const plan = await planResources(client, [file]);
    expect(plan.steps.map((s) => `${s.action} ${s.kind} ${s.name}`)).toEqual([
      "create workspaces acme/lab",
      "create participants ana",
    ]);
    expect((await applyPlan(client, plan)).failed).toBeUndefined();
    const lab = emu.state.workspaces.all().find((w) => w.name === "lab")!;
    const ana = emu.state.members.all().find((m) => m.userName === "ana")!;
    expect(
      emu.state.participants.inWorkspace(lab.id).find((p) => p.memberId === ana.id)?.role,
    ).toBe("maintain");
    expect((await planResources(client, [file])).pending).toBe(0);
  });
});

test("a user or team neither in the organization nor in the files is an error of the plan, at its line", async () => {
  await withEmulator(seeded(), async (emu) => {
    const client = clientOf(emu);
    const plan = (text: string) => planResources(client, [{ text, file: "m.yml" }]);
    await expect(
      plan(
        "participants:\n  - name: cy@acme.org\n    type: MEMBER\n    workspace: acme/dev\n    role: VIEW\n",
      ),
    ).rejects.toThrow(
      'm.yml:2: participants "cy@acme.org": user "cy@acme.org" is neither in the files nor in organization acme',
    );
    await expect(
      plan(
        "participants:\n  - name: chem\n    type: TEAM\n    workspace: acme/dev\n    role: VIEW\n",
      ),
    ).rejects.toThrow(
      'm.yml:2: participants "chem": team "chem" is neither in the files nor in organization acme',
    );
    await expect(
      plan("teams:\n  - name: t\n    organization: acme\n    members: [ana, cy]\n"),
    ).rejects.toThrow(
      'm.yml:2: teams "t": user "cy" is neither in the files nor in organization acme',
    );
    await expect(
      plan("participants:\n  - name: ana\n    workspace: acme/dev\n    role: boss\n"),
    ).rejects.toThrow(
      'm.yml:2: participants "ana": role is one of owner, admin, maintain, launch, connect, view, not boss',
    );
    await expect(plan("participants:\n  - name: ana\n    workspace: acme/dev\n")).rejects.toThrow(
      'm.yml:2: participants "ana": a participant needs its role',
    );
    await expect(plan("members:\n  - name: ana\n    organization: acme\n")).rejects.toThrow(
      'm.yml:2: members takes no key "name"',
    );
    expect(emu.requests.filter((r) => r.method !== "GET")).toEqual([]);
  });
});
