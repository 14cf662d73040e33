/**
 * Launches from the library, then from the CLI (`seqera-api launch --rows`, one process, the
 * package built first), against the emulator at the service's rate limit (20 calls/s): how
 * many calls N launches of one pipeline make, and how long they take, from the first call to
 * the last answer (the CLI: the whole process). Printed, not asserted (the machine
 * is shared); the call count is asserted by test/automation/launch-reuse.test.ts.
 * BENCH_LAUNCHES=N (default 150).
 *
 * Each launch names a compute environment and two labels (one plain, one resource label) and
 * changes a param, as a batch of launches from a samplesheet does.
 */
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createSeqeraClient, launchPipeline } from "../../src/index.js";
import type { Emulator } from "../../src/testing/index.js";
import { ONE_PIPELINE, seededEmulator } from "../automation/setup.js";

const N = Number(process.env.BENCH_LAUNCHES ?? 150);

const root = fileURLToPath(new URL("../..", import.meta.url));

/** Calls per operation, and the fewest seconds they can take at 20/s after a first burst of 20. */
function report(what: string, emulator: Emulator, seconds: number, extra = ""): void {
  const calls = emulator.requests.length;
  const byOperation = new Map<string, number>();
  for (const { operationId = "?" } of emulator.requests) {
    byOperation.set(operationId, (byOperation.get(operationId) ?? 0) + 1);
  }
  const floor = Math.max(0, calls - 20) / 20;
  console.log(
    `${what}: ${N} launches, ${calls} calls in ${seconds.toFixed(2)} s (at 20/s, ${floor.toFixed(2)} s at least)${extra}`,
  );
  for (const [operation, count] of byOperation) console.log(`  ${count}\t${operation}`);
}

// The service's rate limit (the tests' emulators have none).
const library = await seededEmulator(ONE_PIPELINE, { rateLimit: {} });
try {
  const client = createSeqeraClient({
    baseUrl: library.url,
    token: library.token,
    workspaceId: "acme/prod",
  });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: N }, (_, i) =>
      launchPipeline(client, "rnaseq", {
        computeEnv: "aws-big",
        labels: ["nightly", "team=bio"],
        params: { sample: `s${i}` },
      }),
    ),
  );
  report("library", library, (performance.now() - started) / 1000);
} finally {
  await library.close();
}

// The same launches as rows of one `seqera-api launch --rows` process (params by run name).
execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: root, stdio: "ignore" });
const cli = await seededEmulator(ONE_PIPELINE, { rateLimit: {} });
const dir = await mkdtemp(path.join(tmpdir(), "seqera-bench-"));
try {
  const rows = ["key,run-name,compute-env,labels"];
  for (let i = 0; i < N; i++) rows.push(`s${i},run-${i},aws-big,"nightly,team=bio"`);
  await writeFile(path.join(dir, "rows.csv"), rows.join("\n") + "\n");
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [path.join(root, "dist/src/cli/main.js"), "launch", "rnaseq", "--rows", "rows.csv"],
    {
      cwd: dir,
      stdio: "ignore",
      env: {
        ...process.env,
        TOWER_ACCESS_TOKEN: cli.token,
        TOWER_API_ENDPOINT: cli.url,
        TOWER_WORKSPACE_ID: "acme/prod",
      },
    },
  );
  const [code] = (await once(child, "exit")) as [number | null];
  report("CLI --rows", cli, (performance.now() - started) / 1000, `, exit ${code}`);
} finally {
  await cli.close();
  await rm(dir, { recursive: true, force: true });
}
