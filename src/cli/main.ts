#!/usr/bin/env node
/** The `seqera-api` executable: see help.ts for its usage and exit-codes.ts for its exit codes. */
import { markReaderGone } from "./output.js";
import { processInterrupts } from "./process-interrupts.js";
import { run } from "./run.js";

// A reader that stops early (`| head`, a closed log collector) closes its pipe: that is not a
// failure of the command, whose own exit code stands; what it would have read is dropped.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    markReaderGone(stream);
  });
}

process.exitCode = await run(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  // Imported when a command reads stdin: text-file.ts's errors come from the package's main entry,
  // which --version, help and usage errors need not load (~16 ms of CPU).
  stdin: async () => {
    const [{ buffer }, { decodeUtf8 }] = await Promise.all([
      import("node:stream/consumers"),
      import("../core/text-file.js"),
    ]);
    return decodeUtf8("Standard input", await buffer(process.stdin));
  },
  interrupts: processInterrupts,
});
