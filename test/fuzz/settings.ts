/**
 * How many inputs each property tries. `npm test` runs a fixed number per property from a fixed
 * seed, so the suite's time and its inputs are the same on every run; `npm run fuzz` sets
 * FUZZ_RUNS (a multiplier) and lets fast-check draw a new seed each run, printed with any
 * failure; FUZZ_SEED replays one.
 */
import fc from "fast-check";

const multiplier = Number(process.env.FUZZ_RUNS ?? "1");
if (!Number.isInteger(multiplier) || multiplier < 1) {
  throw new Error(
    `FUZZ_RUNS must be a whole number of at least 1, got "${process.env.FUZZ_RUNS}".`,
  );
}
const fuzzing = process.env.FUZZ_RUNS !== undefined;
const replay = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

/** The seed of `npm test`'s runs: any fixed number; changing it changes the inputs tried. */
const SUITE_SEED = 20_260_126;

/** fast-check's parameters for a property tried `runs` times in `npm test`. */
export function runs<T>(count: number, examples: NoInfer<T>[] = []): fc.Parameters<T> {
  return {
    numRuns: count * multiplier,
    seed: replay ?? (fuzzing ? undefined : SUITE_SEED),
    examples,
  };
}

/**
 * The test timeout of a property of `count` runs that each take at most `msPerRun`: its inputs
 * are tried one after another against real servers and processes.
 */
export function timeoutFor(count: number, msPerRun: number): number {
  return Math.max(60_000, count * multiplier * msPerRun);
}
