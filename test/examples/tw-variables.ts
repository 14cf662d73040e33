import type { Emulator } from "seqera-api-client/testing";
import { vi } from "vitest";

/**
 * Sets the tw CLI's variables to the emulator, as a user's shell would, so that the examples
 * make their clients with no options (no workspace unless one is given); undone with
 * `vi.unstubAllEnvs()`.
 */
export function stubTwVariables(emulator: Emulator, workspaceId = ""): void {
  vi.stubEnv("TOWER_ACCESS_TOKEN", emulator.token);
  vi.stubEnv("TOWER_API_ENDPOINT", emulator.url);
  vi.stubEnv("TOWER_WORKSPACE_ID", workspaceId);
}
