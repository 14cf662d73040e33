import { expect, test } from "vitest";
import { applyPlan, planResources } from "../../../src/index.js";
import { clientOf, seededEmulator, withEmulator } from "../setup.js";

/** A team, a new workspace and a label in it: what goes in the workspace waits for it. */
const FILE = `teams:
  - name: bioinfo
    organization: acme
    description: the bioinformaticians
workspaces:
  - name: genomics
    organization: acme
    full-name: Genomics
    description: sequencing
    visibility: PRIVATE
    on_exists: update
labels:
  - name: team
    value: bio
    workspace: acme/genomics
`;

test("a team and a workspace of an organization, and a label in the new workspace: created, then nothing to do", async () => {
  await withEmulator(seededEmulator(), async (emu) => {
    const client = clientOf(emu);
    const plan = await planResources(client, [FILE]);
    expect(plan.steps.map((s) => `${s.action} ${s.kind} ${s.name} ${s.workspace}`)).toEqual([
      "create teams acme/bioinfo null",
      "create workspaces acme/genomics null",
      "create labels team=bio acme/genomics",
    ]);
    expect((await applyPlan(client, plan)).failed).toBeUndefined();
    const [created] = emu.state.workspaces.all().filter((w) => w.name === "genomics");
    expect(created).toMatchObject({ fullName: "Genomics", description: "sequencing" });
    expect(emu.state.labels.list(created!.id).map((l) => l.name)).toEqual(["team"]);
    expect((await planResources(client, [FILE])).pending).toBe(0);

    // A changed description is an update in place: the workspace keeps its id.
    const changed = FILE.replace("description: sequencing", "description: all sequencing");
    const update = await planResources(client, [changed]);
    expect(update.steps.filter((s) => s.action !== "unchanged")).toMatchObject([
      {
        kind: "workspaces",
        action: "update",
        changes: [{ field: "description", from: "sequencing", to: "all sequencing" }],
      },
    ]);
    expect((await applyPlan(client, update)).failed).toBeUndefined();
    expect(emu.state.workspaces.get(created!.id)).toMatchObject({ description: "all sequencing" });

    const deletion = await planResources(client, [changed], { delete: true });
    expect(deletion.steps.map((s) => `${s.action} ${s.kind}`)).toEqual([
      "delete labels",
      "delete workspaces",
      "delete teams",
    ]);
  });
});

test("a team or workspace names its organization; an organization the user does not have is an error of the plan", async () => {
  await withEmulator(seededEmulator(), async (emu) => {
    const client = clientOf(emu);
    await expect(
      planResources(client, [{ text: "workspaces:\n  - name: x\n", file: "w.yml" }]),
    ).rejects.toThrow('w.yml:2: workspaces "x": organization names the organization it belongs to');
    await expect(
      planResources(client, ["workspaces:\n  - name: x\n    organization: acmee\n"]),
    ).rejects.toThrow(/acmee.*acme/);
  });
});

test("a new organization, its team and workspace, and a secret in that workspace, in one apply", async () => {
  await withEmulator(seededEmulator(), async (emu) => {
    const client = clientOf(emu);
    const file = `organizations:
  - name: newco
    full-name: New Co
    location: Global
    website: https://newco.example/
    on_exists: update
workspaces:
  - name: lab
    organization: newco
    full-name: The lab
teams:
  - name: staff
    organization: newco
secrets:
  - name: TOKEN
    value: abc
    workspace: newco/lab
`;
    const plan = await planResources(client, [file]);
    expect(plan.steps.map((s) => `${s.action} ${s.kind} ${s.name}`)).toEqual([
      "create organizations newco",
      "create teams newco/staff",
      "create workspaces newco/lab",
      "create secrets TOKEN",
    ]);
    expect((await applyPlan(client, plan)).failed).toBeUndefined();
    const org = emu.state.organizations.all().find((o) => o.name === "newco");
    expect(org).toMatchObject({
      fullName: "New Co",
      location: "Global",
      website: "https://newco.example/",
    });
    const [lab] = emu.state.workspaces.inOrg(org!.id);
    expect(emu.state.secrets.list(lab!.id).map((s) => s.name)).toEqual(["TOKEN"]);
    expect((await planResources(client, [file])).pending).toBe(0);
    const changed = file.replace("New Co", "NewCo Ltd").replace("Global", "Lisbon");
    const renamed = await planResources(client, [changed]);
    expect(renamed.steps.filter((s) => s.action !== "unchanged")).toMatchObject([
      {
        kind: "organizations",
        action: "update",
        changes: [
          { field: "fullName", to: "NewCo Ltd" },
          { field: "location", from: "Global", to: "Lisbon" },
        ],
      },
    ]);
    await applyPlan(client, renamed);
    expect(emu.state.organizations.get(org!.id)).toMatchObject({
      fullName: "NewCo Ltd",
      location: "Lisbon",
      website: "https://newco.example/",
    });
    const deleted = await applyPlan(client, await planResources(client, [file], { delete: true }));
    expect(deleted.applied.map((s) => s.kind)).toEqual([
      "secrets",
      "workspaces",
      "teams",
      "organizations",
    ]);
    expect(emu.state.organizations.get(org!.id)).toBeUndefined();
  });
});
