import type { InputSource } from "./body-fields.js";
import type { Streams } from "./output.js";

/** What a command runs with: its streams, standard input and environment (injectable in tests). */
export interface CliContext extends Streams, InputSource {
  env: Readonly<Record<string, string | undefined>>;
}
