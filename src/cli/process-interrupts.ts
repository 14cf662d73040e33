import type { Interrupt } from "../errors/cli-errors.js";
import type { CliContext } from "./context.js";
import { EXIT } from "./exit-codes.js";

/**
 * This process's SIGINT/SIGTERM for a command's scope: they stop the running command cleanly
 * (its requests aborted, what it launched reported); one more once it is stopping exits at once.
 */
export const processInterrupts: NonNullable<CliContext["interrupts"]> = (listener) => {
  let stopping = false;
  const on = (signal: Interrupt) => {
    if (stopping) process.exit(signal === "SIGINT" ? EXIT.sigint : EXIT.sigterm);
    stopping = listener(signal) === "stopping";
  };
  process.on("SIGINT", on);
  process.on("SIGTERM", on);
  return () => {
    process.off("SIGINT", on);
    process.off("SIGTERM", on);
  };
};
