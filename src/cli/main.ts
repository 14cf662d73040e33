#!/usr/bin/env node
/** The `seqera-api` executable: see help.ts for its usage and exit-codes.ts for its exit codes. */
import { buffer } from "node:stream/consumers";
import { EXIT } from "./exit-codes.js";
import { decodeUtf8 } from "./input-text.js";
import { processInterrupts } from "./process-interrupts.js";
import { run } from "./run.js";

// A reader that stops early (`| head`) closes the pipe: that is not a failure of ours.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
  process.exit(EXIT.ok);
});

process.exitCode = await run(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  stdin: async () => decodeUtf8("Standard input", await buffer(process.stdin)),
  interrupts: processInterrupts,
});
