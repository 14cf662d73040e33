/**
 * `seqera-api plan` and `apply` of actions and data links against the emulator: the plan a
 * terminal user sees (the docs show it) and the requests the service received.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Emulator } from "seqera-api-client/testing";
import { afterAll, beforeAll, expect, test } from "vitest";
import { EXIT } from "../../src/cli/exit-codes.js";
import { ENV, FILE } from "../automation/declare/files.js";
import { cliAndEmulator, runCli, type BuiltCli } from "./cli.js";

let cli: BuiltCli;
let emulator: Emulator;
let work: string;
let actions: string;
beforeAll(async () => {
  ({ cli, emulator, work } = (await cliAndEmulator(
    {
      rateLimit: false,
      autoAdvance: true,
      seed: {
        organizations: [{ name: "acme" }],
        workspaces: [{ org: "acme", name: "prod", id: 42 }],
      },
    },
    "declare-actions-",
  )) as { cli: BuiltCli; emulator: Emulator; work: string });
  actions = await readFile(new URL("../automation/declare/actions.yml", import.meta.url), "utf8");
  await writeFile(path.join(work, "acme.yml"), FILE);
  await writeFile(path.join(work, "actions.yml"), actions);
});
afterAll(() => emulator?.close());

const seqera = (args: string[], stdin?: string) =>
  runCli(cli.main, args, {
    cwd: work,
    env: { TOWER_API_ENDPOINT: emulator.url, TOWER_ACCESS_TOKEN: emulator.token, ...ENV },
    ...(stdin !== undefined && { stdin }),
  });

test("an action's changed revision is an update, its changed type a replace that says why", async () => {
  expect((await seqera(["apply", "acme.yml", "actions.yml"])).code).toBe(EXIT.ok);
  const changed = actions.replace("revision: master", "revision: dev");
  const update = await seqera(["plan", "-", "--targets", "actions"], changed);
  expect(update.stdout).toBe(
    '~ update actions "nightly" in acme/prod\n    launch.revision: "master" → "dev"\nPlan: 0 to create, 1 to update, 0 to replace, 0 to delete; 0 unchanged.\n',
  );
  const github = actions.replace("type: tower", "type: github");
  const replace = await seqera(["plan", "-", "--targets", "actions"], github);
  expect(replace.stdout).toBe(
    '-/+ replace actions "nightly" in acme/prod: source cannot change in place (PUT /actions/{actionId} does not change source)\n    source: "tower" → "github"\nPlan: 0 to create, 0 to update, 1 to replace, 0 to delete; 0 unchanged.\n',
  );
  const from = emulator.requests.length;
  expect((await seqera(["apply", "-"], changed)).code).toBe(EXIT.ok);
  expect(
    emulator.requests.slice(from).flatMap((r) => (r.method === "GET" ? [] : [r.operationId])),
  ).toEqual(["UpdateAction"]);
});
