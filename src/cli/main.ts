#!/usr/bin/env node
/** The `seqera-api` executable: see help.ts for its usage and exit-codes.ts for its exit codes. */
import { buffer } from "node:stream/consumers";
import type { Interrupt } from "./cli-errors.js";
import type { CliContext } from "./context.js";
import { EXIT } from "./exit-codes.js";
import { decodeUtf8 } from "./input-text.js";
import { markReaderGone } from "./output.js";
import { run } from "./run.js";

// A reader that stops early (`| head`, a closed log collector) closes its pipe: that is not a
// failure of the command, whose own exit code stands; what it would have read is dropped.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    markReaderGone(stream);
  });
}

/**
 * SIGINT/SIGTERM stop the running command cleanly (its requests aborted, what it launched
 * printed); one more once it is stopping exits at once.
 */
const interrupts: CliContext["interrupts"] = (listener) => {
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

process.exitCode = await run(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  stdin: async () => decodeUtf8("Standard input", await buffer(process.stdin)),
  interrupts,
});
