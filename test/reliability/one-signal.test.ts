/**
 * One signal for a whole batch, as users cancel one: 50 of each kind of work on it at once (calls
 * in flight, retries sleeping, calls queued for the rate limit, waits, pages, log follows, a
 * workspace's name and other names looked up, log downloads) hold one listener on it between them, print no
 * MaxListenersExceededWarning, and all end with its reason when it aborts, leaving no listener.
 */
import { getEventListeners } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { find, followRunLog, saveRunLogs, waitForComputeEnv, waitForRun } from "../../src/index.js";
import { clientFor } from "../helpers/client.js";
import { useTestServer, type ScriptedResponse } from "../helpers/server.js";

const server = await useTestServer();
const N = 50;
const SLOW = { pollIntervalMs: 60_000, maxPollIntervalMs: 60_000 };
afterEach(() => server.handle(() => ({ body: {} })));

/** The answers: slow where the work should be in flight, failing where it should retry. */
function answer(pathname: string, query: URLSearchParams): ScriptedResponse {
  if (pathname === "/credentials") return { status: 503, body: { message: "down" } };
  if (/^\/workflow\/[^/]+$/.test(pathname))
    return { body: { workflow: { id: "w", status: "RUNNING" } } };
  if (/^\/compute-envs\/[^/]+$/.test(pathname)) {
    return { body: { computeEnv: { id: "c", status: "CREATING" } } };
  }
  if (pathname.endsWith("/log")) {
    const downloads = [{ fileName: "nf.log", saveName: `${query.get("n") ?? "x"}.log` }];
    return { body: { log: { entries: [], forwardToken: "t", pending: true, downloads } } };
  }
  if (pathname.endsWith("/download")) {
    // A download that starts and stalls: the copy to disk is under way when the batch ends.
    return {
      write: (res) => {
        res.writeHead(200, { "content-type": "text/plain" });
        res.write("line\n");
      },
    };
  }
  return { delayMs: 60_000 };
}

describe("one signal given to 50 of each kind of work at once", () => {
  test("one listener on it, no MaxListenersExceededWarning; its abort ends them all", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    const dir = await mkdtemp(path.join(tmpdir(), "one-signal-"));
    server.handle((request) => answer(request.pathname, request.query));
    try {
      const batch = new AbortController();
      const { signal } = batch;
      // Each its own token: clients of one token share its rate limit.
      const client = clientFor(server, { token: "one-signal-a", rateLimit: { perSecond: 1000 } });
      const retrying = clientFor(server, {
        token: "one-signal-b",
        rateLimit: { perSecond: 1000 },
        retry: { maxAttempts: 3, baseDelayMs: 60_000, maxDelayMs: 60_000, maxElapsedMs: 600_000 },
      });
      const named = clientFor(server, {
        token: "one-signal-d",
        rateLimit: { perSecond: 1000 },
        workspaceId: "acme/prod",
      });
      const queued = clientFor(server, { token: "one-signal-c", rateLimit: { perSecond: 1 } });
      const each = (work: (i: number) => Promise<unknown>) =>
        Array.from({ length: N }, (_, i) => work(i));
      const kinds: Record<string, Promise<unknown>[]> = {
        calls: each(() => client.GET("/service-info", { signal })),
        "retries' sleeps": each(() => retrying.GET("/credentials", { signal })),
        "the rate limit's queue": each(() => queued.GET("/service-info", { signal })),
        "run waits": each((i) => waitForRun(client, `w${i}`, { ...SLOW, signal })),
        "compute env waits": each((i) => waitForComputeEnv(client, `c${i}`, { ...SLOW, signal })),
        pages: each(async () => {
          for await (const _ of client.paginate("/workflow", { signal }));
        }),
        "log follows": each(async (i) => {
          for await (const _ of followRunLog(client, `w${i}`, { ...SLOW, signal }));
        }),
        "a workspace's name resolved": each(() => named.GET("/compute-envs", { signal })),
        "name look-ups": each((i) => find.pipeline(client, `pipeline-${i}`, { signal })),
        "log downloads": each((i) =>
          saveRunLogs(client, `d${i}`, path.join(dir, `${i}`), { signal }),
        ),
      };
      const settled = Object.entries(kinds).map(async ([kind, works]) => {
        const outcomes = await Promise.allSettled(works);
        return [kind, outcomes.map((o) => (o.status === "rejected" ? o.reason : o.value))];
      });
      // Everything under way: the calls, retries and pages at the server, the waits and follows
      // past their first poll, the downloads stalled mid-body.
      const at = (pattern: RegExp) => server.requests.filter((r) => pattern.test(r.pathname));
      const underWay = () =>
        at(/^\/service-info$/).length >= N + 1 &&
        at(/^\/credentials$/).length >= N &&
        at(/^\/user-info$/).length >= 1 &&
        at(/^\/workflow$/).length >= N &&
        at(/^\/workflow\/w\d+$/).length >= N &&
        at(/^\/compute-envs\/c\d+$/).length >= N &&
        at(/^\/workflow\/w\d+\/log$/).length >= N &&
        at(/^\/pipelines$/).length >= N &&
        at(/\/download$/).length >= N;
      while (!underWay()) await new Promise((resolve) => setTimeout(resolve, 20));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(getEventListeners(signal, "abort")).toHaveLength(1);

      const reason = new Error("batch cancelled");
      batch.abort(reason);
      const outcomes = Object.fromEntries(await Promise.all(settled));
      for (const kind of Object.keys(kinds)) {
        expect(outcomes[kind], kind).toEqual(Array(N).fill(reason));
      }
      expect(getEventListeners(signal, "abort")).toHaveLength(0);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((w) => `${w.name}: ${w.message}`)).toEqual([]);
    } finally {
      process.off("warning", onWarning);
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
