import { bench, describe } from "vitest";
import { startEmulator } from "../../src/testing/index.js";

// Users start an emulator per test file, so start-up and the first answer are what they wait for.
describe("emulator start-up", () => {
  bench("startEmulator() until listening, then close()", async () => {
    const emulator = await startEmulator();
    await emulator.close();
  });

  bench("start, one validated request, close", async () => {
    const emulator = await startEmulator();
    await fetch(`${emulator.url}/workflow?max=10`, {
      headers: { authorization: `Bearer ${emulator.token}` },
    });
    await emulator.close();
  });
});
