/**
 * The GitHub Action's entry (action.yml runs its bundle, scripts/build-action.mjs): inputs from
 * the runner's INPUT_* variables, outputs and summary into its files, and the job's
 * cancellation (SIGINT, then SIGTERM) handled as the CLI handles them.
 */
import { processInterrupts } from "../cli/process-interrupts.js";
import { EXIT } from "../cli/exit-codes.js";
import { runAction } from "./run-action.js";
import { annotate } from "./workflow-commands.js";

const io = {
  log: (line: string) => void process.stdout.write(`${line}\n`),
  stderr: process.stderr,
  env: process.env,
  interrupts: processInterrupts,
};
try {
  process.exitCode = await runAction(io);
} catch (error) {
  // A bug of ours, not the run's: one annotation, not a stack trace as the step's only output.
  annotate(io, "error", "Seqera run: the step failed", String(error));
  process.exitCode = EXIT.failure;
}
