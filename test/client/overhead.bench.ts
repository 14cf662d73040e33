import { readFile } from "node:fs/promises";
import path from "node:path";
import createClient from "openapi-fetch";
import { afterAll, bench, describe } from "vitest";
import type { paths } from "../../generated/schema.js";
import { createSeqeraClient } from "../../src/index.js";
import { startServer } from "../helpers/server.js";
import { TOKEN } from "../helpers/client.js";
import { RECORDED as RECORDED_DIR } from "../helpers/schema.js";

/**
 * The client's own cost over bare openapi-fetch (target: at most 1.10x). "in memory" answers
 * from a fetch that never touches the network, so only the client code is measured; "loopback"
 * is the same call over a real 127.0.0.1 connection, through Node's fetch as openapi-fetch's
 * is, and through the client's default transport.
 */
const BODY = JSON.stringify({ workflow: { id: "w1", status: "SUCCEEDED" } });
const memoryFetch = async () =>
  new Response(BODY, { headers: { "content-type": "application/json" } });
const headers = { Authorization: `Bearer ${TOKEN}`, "Accept-Version": "1" };
const params = { path: { workflowId: "w1" }, query: { workspaceId: 42 } };
/**
 * Each task warms up before it is timed: without it the first task of a group also pays for
 * warming the code both share (fetch, the JIT), which swung the ratio by ±20% between runs.
 */
const timing = { time: 2_000, warmupTime: 500, warmupIterations: 200 };

describe("in memory: GET /workflow/{workflowId}", () => {
  const bare = createClient<paths>({
    baseUrl: "https://api.cloud.seqera.io",
    headers,
    fetch: memoryFetch,
  });
  const seqera = createSeqeraClient({
    token: TOKEN,
    fetch: memoryFetch,
    retry: false,
    rateLimit: false,
  });
  bench(
    "openapi-fetch",
    async () => {
      const { data } = await bare.GET("/workflow/{workflowId}", { params });
      if (!data) throw new Error("no data");
    },
    timing,
  );
  bench(
    "seqera client",
    async () => {
      await seqera.GET("/workflow/{workflowId}", { params });
    },
    timing,
  );
});

/**
 * validateResponses through the client, on a describe-run answer recorded from the service:
 * "off" (the default, loading nothing) beside "warn" (Ajv checks every answer).
 */
const RECORDED = await readFile(
  path.join(RECORDED_DIR, "tower-cli/get_workflow_workflowId_200_4ace08d8f1db.json"),
  "utf8",
);
const recordedFetch = async () =>
  new Response(RECORDED, { headers: { "content-type": "application/json" } });

const validatingClient = (validateResponses: "off" | "warn") =>
  createSeqeraClient({
    token: TOKEN,
    fetch: recordedFetch,
    retry: false,
    rateLimit: false,
    validateResponses,
    logger: () => {},
  });
const unvalidated = validatingClient("off");
const validated = validatingClient("warn");
// The validator is loaded and this operation compiled once per process: before timing.
await validated.GET("/workflow/{workflowId}", { params });

describe("in memory, a recorded describe-run answer: validateResponses", () => {
  bench(
    "off",
    async () => {
      await unvalidated.GET("/workflow/{workflowId}", { params });
    },
    timing,
  );
  bench(
    "warn",
    async () => {
      await validated.GET("/workflow/{workflowId}", { params });
    },
    timing,
  );
});

// Started at load: bench() does not wait for beforeAll hooks.
const server = await startServer(() => ({
  headers: { "content-type": "application/json" },
  body: BODY,
}));
afterAll(() => server.close());

describe("loopback: GET /workflow/{workflowId}", () => {
  const bare = createClient<paths>({ baseUrl: server.url, headers });
  const options = { token: TOKEN, baseUrl: server.url, retry: false, rateLimit: false } as const;
  // The client's own cost over the same transport, and its default transport's (node:http).
  const overFetch = createSeqeraClient({ ...options, fetch: (r, i) => globalThis.fetch(r, i) });
  const seqera = createSeqeraClient(options);
  const cases: [string, () => Promise<unknown>][] = [
    ["openapi-fetch", async () => (await bare.GET("/workflow/{workflowId}", { params })).data],
    [
      "seqera client, through Node's fetch",
      () => overFetch.GET("/workflow/{workflowId}", { params }),
    ],
    [
      "seqera client, its default transport (node:http)",
      () => seqera.GET("/workflow/{workflowId}", { params }),
    ],
  ];
  for (const [name, call] of cases) {
    bench(
      name,
      async () => {
        server.requests.length = 0;
        if (!(await call())) throw new Error("no data");
      },
      timing,
    );
  }
});
