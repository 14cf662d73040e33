import { once } from "node:events";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { write, type Streams } from "./output.js";

/**
 * `seqera-api emulator`: serves the emulator until SIGINT or SIGTERM. Prints its URL and token
 * as TOWER_* assignments (the token is the emulator's own, valid nowhere else).
 */
export async function emulatorCommand(streams: Streams): Promise<ExitCode> {
  const { startEmulator } = await import("../testing/index.js");
  const emulator = await startEmulator();
  await write(
    streams.stdout,
    `TOWER_API_ENDPOINT=${emulator.url}\nTOWER_ACCESS_TOKEN=${emulator.token}\n`,
  );
  if (streams.stderr.isTTY) streams.stderr.write("Seqera API emulator running; Ctrl-C stops it.\n");
  await Promise.race([once(process, "SIGINT"), once(process, "SIGTERM")]);
  await emulator.close();
  return EXIT.ok;
}
