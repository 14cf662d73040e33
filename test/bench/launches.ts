/**
 * Launches from the library against the emulator at the service's rate limit (20 calls/s): how
 * many calls N launches of one pipeline make, and how long they take, from the first call to
 * the last answer. Printed, not asserted (the machine is shared); the call count is asserted by
 * test/automation/launch-reuse.test.ts. BENCH_LAUNCHES=N (default 150).
 *
 * Each launch names a compute environment and two labels (one plain, one resource label) and
 * changes a param, as a batch of launches from a samplesheet does.
 */
import { createSeqeraClient, launchPipeline } from "../../src/index.js";
import { ONE_PIPELINE, seededEmulator } from "../automation/setup.js";

const N = Number(process.env.BENCH_LAUNCHES ?? 150);

// The service's rate limit (the tests' emulators have none).
const emulator = await seededEmulator(ONE_PIPELINE, { rateLimit: {} });
try {
  const client = createSeqeraClient({
    baseUrl: emulator.url,
    token: emulator.token,
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
  const seconds = (performance.now() - started) / 1000;
  const calls = emulator.requests.length;
  const byOperation = new Map<string, number>();
  for (const { operationId = "?" } of emulator.requests) {
    byOperation.set(operationId, (byOperation.get(operationId) ?? 0) + 1);
  }
  // At 20 calls/s after a first burst of 20, the fewest seconds these calls can take.
  const floor = Math.max(0, calls - 20) / 20;
  console.log(
    `${N} launches: ${calls} calls in ${seconds.toFixed(2)} s (at 20/s, ${floor.toFixed(2)} s at least)`,
  );
  for (const [operation, count] of byOperation) console.log(`  ${count}\t${operation}`);
} finally {
  await emulator.close();
}
