import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { operations } from "../../generated/operations.js";
import { startEmulator, type Emulator } from "../../src/testing/index.js";
import { stateRoutes } from "../../src/testing/routes/index.js";
import { root } from "../cli/cli.js";
import { RECORDED } from "../helpers/schema.js";
import { worldFor } from "./world.js";

/**
 * The emulator's answers against the service's recorded ones (test/fixtures/real-responses.lock.json, read
 * at test time): per operation answered from state, the property paths present in the
 * recorded answer and in the emulator's must be the same, nulls included (the service writes
 * absent values as null), but for the exceptions below, each with its reason.
 */
const shared = RECORDED;
const manifest = JSON.parse(readFileSync(path.join(shared, "manifest.json"), "utf8")) as {
  fixtures: { file: string; method: string; path: string; status: number }[];
};

/**
 * Properties the recorded answers have and the emulator's do not, by operation: a key covers
 * that path and everything under it. Each is explained; one no longer needed fails the test.
 */
const MISSING: Record<string, Record<string, string>> = {
  Info: {
    "serviceInfo.analytics.siteId":
      "the recording install's analytics; the emulator has none (null)",
    "serviceInfo.analytics.url": "the recording install's analytics; the emulator has none (null)",
    "serviceInfo.navbar.menus": "the recording install's custom menus; the emulator has none",
  },
  UserInfo: {
    "user.options.githubToken": "a user option of older services, not in the pinned schema",
    "user.options.maxRuns": "a user option of older services, not in the pinned schema",
  },
  ListPipelines: {
    "pipelines[].newUnknownAttribute":
      "made up by tw's tests to check that unknown attributes are ignored",
    "pipelines[].organizationName": "the name of orgName in older services",
  },
  DescribePipelineLaunch: {
    "launch.computeEnv.config.platform":
      "older services named the config's platform `platform`; the pinned schema `discriminator`",
  },
  DescribeLaunch: {
    "launch.computeEnv.config.platform":
      "older services named the config's platform `platform`; the pinned schema `discriminator`",
  },
  DescribeWorkflowLaunch: {
    "launch.computeEnv.config.platform":
      "older services named the config's platform `platform`; the pinned schema `discriminator`",
    "launch.computeEnvId": "sent by older services beside computeEnv; not in the pinned schema",
  },
  DescribeComputeEnv: {
    "computeEnv.config.":
      "the recorded environments (AWS Batch Forge, Google, grid) carry their platform's whole " +
      "configuration; the emulator keeps what a compute env is created with (platform, region, " +
      "work dir)",
  },
  ListActions: {
    "actions[].event.":
      "an action's event is one of several kinds (a GitHub push carries its commit); the " +
      "seeded action's is sampled as the first kind",
  },
  DescribeAction: {
    "action.event.":
      "an action's event is one of several kinds (a GitHub push carries its commit); the " +
      "seeded action's is sampled as the first kind",
    "action.message": "sent (null) by older services; not in the pinned schema",
  },
  DescribeWorkflow: {
    "progress.labels": "older services listed the run's labels under progress too; now beside it",
  },
};

/** Maps whose keys are data, not properties: a run's own parameters. */
const DATA_MAPS = new Set(["params"]);

/** Property paths of a JSON value: "a", "a.b", "list[].c"; arrays by the union of their items. */
function shape(value: unknown, prefix = "", depth = 0, out = new Set<string>()): Set<string> {
  if (depth > 3 || DATA_MAPS.has(prefix.split(".").pop()!)) return out;
  if (Array.isArray(value)) {
    for (const item of value) shape(item, `${prefix}[]`, depth, out);
  } else if (typeof value === "object" && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      const at = prefix ? `${prefix}.${key}` : key;
      out.add(at);
      shape(child, at, depth + 1, out);
    }
  }
  return out;
}

const byOperation = new Map<string, Set<string>>();
for (const fixture of manifest.fixtures) {
  const info = operations[`${fixture.method} ${fixture.path}`];
  if (!info || !(info.operationId in stateRoutes) || fixture.status !== 200) continue;
  const body = JSON.parse(readFileSync(path.join(shared, fixture.file), "utf8"));
  const paths = byOperation.get(info.operationId) ?? new Set<string>();
  for (const p of shape(body)) paths.add(p);
  byOperation.set(info.operationId, paths);
}

/** Every property name the pinned schema declares. */
const DECLARED = new Set<string>();
(function collect(node: unknown): void {
  if (typeof node !== "object" || node === null) return;
  const properties = (node as { properties?: Record<string, unknown> }).properties;
  if (properties) for (const key of Object.keys(properties)) DECLARED.add(key);
  for (const child of Object.values(node)) collect(child);
})(JSON.parse(readFileSync(path.join(root, "generated/openapi.json"), "utf8")).components);

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ rateLimit: false });
});
afterAll(() => emulator.close());

async function answerOf(operationId: string): Promise<unknown> {
  const info = Object.values(operations).find((o) => o.operationId === operationId)!;
  const world = worldFor(emulator, operationId)!;
  const route = info.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(String(world.path[name])),
  );
  let body: BodyInit | undefined;
  const headers: Record<string, string> = { authorization: `Bearer ${emulator.token}` };
  if (operationId === "UploadDatasetV2") {
    const form = new FormData();
    form.set("file", new File(["a,b\n1,2\n"], "samples.csv", { type: "text/csv" }));
    body = form;
  } else if (world.body !== undefined) {
    body = JSON.stringify(world.body);
    headers["content-type"] = "application/json";
  }
  const response = await fetch(`${emulator.url}${route}`, { method: info.method, headers, body });
  const text = await response.text();
  expect(response.status, `${operationId}: ${text}`).toBe(200);
  return JSON.parse(text);
}

describe("answers have the properties the service's recorded answers have", () => {
  test("the recorded answers cover operations answered from state", () => {
    expect(byOperation.size).toBeGreaterThan(20);
  });

  for (const [operationId, recorded] of byOperation) {
    test(operationId, async () => {
      const ours = shape(await answerOf(operationId));
      const exceptions = Object.keys(MISSING[operationId] ?? {});
      const covers = (key: string, p: string) =>
        key.endsWith(".")
          ? p.startsWith(key)
          : p === key || (/^[.[]/.test(p.slice(key.length)) && p.startsWith(key));
      const missing = [...recorded].filter((p) => !ours.has(p));
      expect(missing.filter((p) => !exceptions.some((key) => covers(key, p)))).toEqual([]);
      expect(exceptions.filter((key) => !missing.some((p) => covers(key, p)))).toEqual([]);
      // What the emulator sends beyond the recordings is what newer services send: each
      // property is one the pinned schema declares.
      const extra = [...ours].filter((p) => !recorded.has(p));
      expect(extra.filter((p) => !DECLARED.has(p.split(".").pop()!.replace("[]", "")))).toEqual([]);
    });
  }
});
