import type { InputSource } from "./body-fields.js";
import type { Interrupt } from "../errors/cli-errors.js";
import type { Streams } from "./output.js";

/** What a command runs with: its streams, standard input and environment (injectable in tests). */
export interface CliContext extends Streams, InputSource {
  env: Readonly<Record<string, string | undefined>>;
  /**
   * Subscribes to SIGINT/SIGTERM while a command runs; returns the unsubscribe. The listener
   * says whether it put the stop off ("deferred", to finish a launch) or acted on it. Absent in
   * tests that run commands in process: the signals then keep their default.
   */
  interrupts?: (listener: (signal: Interrupt) => "deferred" | "stopping") => () => void;
}
