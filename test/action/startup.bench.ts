import { spawn } from "node:child_process";
import { once } from "node:events";
import { rm } from "node:fs/promises";
import { startEmulator } from "seqera-api-client/testing";
import { afterAll, bench, describe } from "vitest";
import { actionMain, stepEnv, stepsDir } from "./step.js";

// The action's entry as the runner starts it; what a job waits for before Seqera hears of it.
const dir = await stepsDir();
const [main, emulator] = await Promise.all([
  actionMain(dir),
  startEmulator({
    seed: {
      workspaces: [{ org: "acme", name: "genomics", id: 42 }],
      computeEnvs: [{ id: "ce1", name: "aws", workspaceId: 42 }],
      pipelines: [{ name: "rnaseq", workspaceId: 42, launch: { computeEnvId: "ce1" } }],
    },
  }),
]);
afterAll(async () => {
  await emulator.close();
  await rm(dir, { recursive: true, force: true });
});

describe("the GitHub Action's step", () => {
  bench("node start to its first request (launch rnaseq in acme/genomics)", async () => {
    const { env } = await stepEnv(dir, emulator, {
      pipeline: "rnaseq",
      workspace_id: "acme/genomics",
    });
    let first!: () => void;
    const arrived = new Promise<void>((resolve) => (first = resolve));
    emulator.setHandler("UserInfo", () => void first());
    const child = spawn(process.execPath, [main], { env: { PATH: process.env.PATH, ...env } });
    await arrived;
    child.kill("SIGKILL");
    await once(child, "close");
  });
});
