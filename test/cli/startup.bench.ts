import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { bench, describe } from "vitest";
import { sharedBuild } from "./cli.js";

const exec = promisify(execFile);
// The compiled binary, as `npx seqera-api` runs it; target ≤ 150 ms for --version.
const cli = await sharedBuild();
const node = (...args: string[]) => exec(process.execPath, args);

describe("seqera-api start-up (a whole process)", () => {
  bench("node -e '' (Node's own start-up, for reference)", async () => {
    await node("-e", "");
  });

  bench("seqera-api --version", async () => {
    await node(cli.main, "--version");
  });

  bench("seqera-api ListWorkflows --help (loads the schema)", async () => {
    await node(cli.main, "ListWorkflows", "--help");
  });

  bench("seqera-api ListWorkflow (a usage error)", async () => {
    await node(cli.main, "ListWorkflow").catch(() => undefined);
  });
});
