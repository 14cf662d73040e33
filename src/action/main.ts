/**
 * The GitHub Action's entry (action.yml runs it with node once `npm ci` has built it): inputs
 * from the runner's INPUT_* variables, outputs and summary into its files, and the job's
 * cancellation (SIGINT, then SIGTERM) handled as the CLI handles them.
 */
import { processInterrupts } from "../cli/process-interrupts.js";
import { runAction } from "./run-action.js";

process.exitCode = await runAction({
  log: (line) => void process.stdout.write(`${line}\n`),
  stderr: process.stderr,
  env: process.env,
  interrupts: processInterrupts,
});
