/**
 * `seqera-api plan` and `apply` of seqerakit's members, teams' members and participants, as
 * docs/workspaces-as-code.md shows them.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Emulator } from "seqera-api-client/testing";
import { afterAll, expect, test } from "vitest";
import { EXIT } from "../../src/cli/exit-codes.js";
import { cliAndEmulator, runCli, type BuiltCli } from "./cli.js";

const FILE = await readFile(new URL("../automation/declare/members.yml", import.meta.url), "utf8");

const { cli, emulator, work } = (await cliAndEmulator(
  {
    rateLimit: false,
    seed: {
      organizations: [{ name: "acme" }],
      workspaces: [{ org: "acme", name: "dev", id: 43 }],
      members: [{ org: "acme", userName: "ana", email: "ana@acme.org" }],
    },
  },
  "declare-members-",
)) as { cli: BuiltCli; emulator: Emulator; work: string };
await writeFile(path.join(work, "members.yml"), FILE);
afterAll(() => emulator.close());

const seqera = (args: string[]) =>
  runCli(cli.main, args, {
    cwd: work,
    env: { TOWER_API_ENDPOINT: emulator.url, TOWER_ACCESS_TOKEN: emulator.token },
  });

test("the page's members file and its plan are what the CLI reads and prints; applied, nothing is left to do", async () => {
  const page = await readFile(new URL("../../docs/workspaces-as-code.md", import.meta.url), "utf8");
  const shown =
    /<!-- file: test\/automation\/declare\/members\.yml -->\n\n```yaml\n([\s\S]*?)```\n/;
  const planned = await seqera(["plan", "members.yml"]);
  expect(shown.exec(page)?.[1]).toBe(FILE);
  const output = /```text\n\$ seqera-api plan members\.yml\n([\s\S]*?)```\n/.exec(page)?.[1];
  expect(planned.stdout).toBe(output);
  expect((await seqera(["apply", "members.yml"])).code).toBe(EXIT.ok);
  expect(await seqera(["plan", "members.yml", "--detailed-exitcode"])).toMatchObject({
    code: EXIT.ok,
    stdout: "Nothing to do: 4 resources are as the files say.\n",
  });
});
