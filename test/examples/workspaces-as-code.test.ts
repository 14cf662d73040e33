import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startEmulator, type Emulator } from "seqera-api-client/testing";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { CREATED, ENV, FILE } from "../automation/declare/files.js";
import { stubTwVariables } from "./tw-variables.js";
import { applyWorkspaceFile } from "./workspaces-as-code.js";

let emulator: Emulator;
let dir: string;
beforeAll(async () => {
  emulator = await startEmulator({
    autoAdvance: true,
    seed: { workspaces: [{ org: "acme", name: "prod", id: 42 }] },
  });
  dir = await mkdtemp(path.join(tmpdir(), "seqera-declare-"));
  stubTwVariables(emulator);
  for (const [name, value] of Object.entries(ENV)) vi.stubEnv(name, value);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await emulator.close();
  await rm(dir, { recursive: true, force: true });
});

test("a seqerakit file applied from the library, then again: nothing changes the second time", async () => {
  const file = path.join(dir, "acme.yml");
  await writeFile(file, FILE);
  expect(await applyWorkspaceFile(file)).toEqual(CREATED);
  const before = emulator.requests.length;
  expect((await applyWorkspaceFile(file)).every((s) => s.startsWith("unchanged"))).toBe(true);
  expect(emulator.requests.slice(before).filter((r) => r.method !== "GET")).toEqual([]);
  // A field the update cannot change: refused before anything is done.
  await writeFile(file, FILE.replace("eu-west-1", "eu-central-1"));
  await expect(applyWorkspaceFile(file)).rejects.toThrow(
    "Would replace compute-envs aws-eu: config.region cannot change in place",
  );
});

test("the page's files are the ones the tests apply", async () => {
  const page = await readFile(new URL("../../docs/workspaces-as-code.md", import.meta.url), "utf8");
  const shown = [...page.matchAll(/<!-- file: (\S+) -->\n\n```yaml\n([\s\S]*?)```\n/g)];
  expect(shown.map(([, file]) => file)).toEqual([
    "test/automation/declare/acme.yml",
    "test/automation/declare/actions.yml",
    "test/automation/declare/members.yml",
  ]);
  expect(shown[0]![2]).toBe(FILE);
  for (const [, file, text] of shown) {
    expect(text).toBe(await readFile(new URL(`../../${file}`, import.meta.url), "utf8"));
  }
});
