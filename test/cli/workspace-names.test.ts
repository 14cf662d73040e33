import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Emulator } from "seqera-api-client/testing";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { EXIT } from "../../src/cli/exit-codes.js";
import { runCli, type BuiltCli, cliAndEmulator, towerEnv } from "./cli.js";

let cli: BuiltCli;
let emulator: Emulator;

beforeAll(async () => {
  ({ cli, emulator } = await cliAndEmulator({
    seed: {
      organizations: [{ name: "acme" }],
      workspaces: [{ org: "acme", name: "genomics", id: 42 }],
      members: [{ org: "acme", userName: "alice" }],
      participants: [{ workspace: "acme/genomics", member: "alice", role: "launch" }],
    },
  }));
});
afterAll(async () => {
  await emulator?.close();
});

const seqera = async (args: string[], more: Record<string, string> = {}) =>
  runCli(cli.main, args, {
    env: { ...towerEnv(emulator), ...more },
  });
const cacheHome = () => mkdtemp(path.join(tmpdir(), "seqera-cache-"));
const lookups = (from: number) =>
  emulator.requests
    .slice(from)
    .filter((r) => r.operationId === "UserInfo" || r.operationId === "ListWorkspacesUser").length;

describe("-w org/workspace", () => {
  test("fills a path's workspaceId and the orgId beside it: the participants of a workspace by name", async () => {
    const home = await cacheHome();
    const result = await seqera(
      ["ListWorkspaceParticipants", "-w", "acme/genomics", "--paginate"],
      { XDG_CACHE_HOME: home },
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(EXIT.ok);
    const names = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line).userName);
    expect(names).toContain("alice");
    const orgId = emulator.state.organizations.byName("acme", undefined)!.id;
    expect(emulator.requests.at(-1)!.path).toBe(`/orgs/${orgId}/workspaces/42/participants`);
  });

  test("five commands look the name up once; a 403 drops it; SEQERA_NO_CACHE=1 looks up each time", async () => {
    const home = await cacheHome();
    const env = { XDG_CACHE_HOME: home, TOWER_WORKSPACE_ID: "acme/genomics" };
    let from = emulator.requests.length;
    for (let i = 0; i < 5; i++) {
      expect((await seqera(["ListWorkflows"], env)).code).toBe(EXIT.ok);
    }
    // 2 look-up calls and 5 lists, instead of 15 calls.
    expect(lookups(from)).toBe(2);
    expect(emulator.requests.length - from).toBe(7);

    emulator.setHandler("ListWorkflows", () => ({ status: 403 }));
    expect((await seqera(["ListWorkflows"], env)).code).toBe(EXIT.auth);
    emulator.clearHandlers();
    from = emulator.requests.length;
    expect((await seqera(["ListWorkflows"], env)).code).toBe(EXIT.ok);
    expect(lookups(from)).toBe(2);

    from = emulator.requests.length;
    for (let i = 0; i < 2; i++) {
      await seqera(["ListWorkflows"], { ...env, SEQERA_NO_CACHE: "1" });
    }
    expect(lookups(from)).toBe(4);
  });
});
