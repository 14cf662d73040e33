/**
 * SEQERA_RATE_LIMIT_REDIS puts the CLI's rate limiter in Redis, so parallel CI jobs on one token
 * share its budget. Needs redis-server: these tests fail without it (.ci/run installs it).
 */
import { startEmulator, type Emulator } from "seqera-api-client/testing";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { EXIT } from "../../src/cli/exit-codes.js";
import { freePort } from "../helpers/ports.js";
import { startRedis } from "../limits/processes.js";
import { sharedBuild, runCli, type BuiltCli } from "./cli.js";

describe("SEQERA_RATE_LIMIT_REDIS", () => {
  let cli: BuiltCli;
  let emulator: Emulator;
  let redis: Awaited<ReturnType<typeof startRedis>>;
  beforeAll(async () => {
    // Each kept as it starts, so that afterAll stops a redis-server even when the build fails.
    await Promise.all([
      sharedBuild().then((built) => (cli = built)),
      startEmulator().then((started) => (emulator = started)),
      startRedis().then((started) => (redis = started)),
    ]);
  });
  afterAll(async () => {
    await Promise.all([emulator?.close(), redis?.stop()]);
  });

  test("parallel processes keep the token's budget in Redis (under a hash, never the token) and exit", async () => {
    const env = {
      TOWER_API_ENDPOINT: emulator.url,
      TOWER_ACCESS_TOKEN: emulator.token,
      SEQERA_RATE_LIMIT_REDIS: redis.url,
    };
    const results = await Promise.all(
      [1, 2, 3].map(() =>
        runCli(cli.main, ["ListWorkflows", "-q", "max=1"], { env, limitMs: 20_000 }),
      ),
    );
    for (const result of results)
      expect(result).toMatchObject({ code: EXIT.ok, stderr: "", signal: null });

    const { Redis } = await import("ioredis");
    const client = new Redis(redis.url);
    try {
      const keys = await client.keys("*");
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.join(" ")).not.toContain(emulator.token);
    } finally {
      client.disconnect();
    }
  });

  test("a Redis that cannot be reached: no request goes out unpaced; the command ends in one line", async () => {
    const before = emulator.requests.length;
    const result = await runCli(cli.main, ["ListWorkflows", "--timeout", "3s"], {
      env: {
        TOWER_API_ENDPOINT: emulator.url,
        TOWER_ACCESS_TOKEN: emulator.token,
        SEQERA_RATE_LIMIT_REDIS: `redis://127.0.0.1:${await freePort()}`,
      },
      limitMs: 20_000,
    });
    // The limiter waits for Redis (exit 3 at --timeout) or gives up first with its own error (5).
    expect([EXIT.timeout, EXIT.failure]).toContain(result.code);
    expect(result.stderr).toMatch(/^seqera-api: [^\n]+\n$/);
    expect(emulator.requests.length).toBe(before);
  });
});
