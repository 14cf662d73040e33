/**
 * Servers that would make the client spin: a log page marked truncated whose token never
 * moves, a repeated page, a log that restarts without a token, a list that ignores `offset`.
 */
import { describe, expect, test } from "vitest";
import { followRunLog, SeqeraApiError } from "../../src/index.js";
import { clientFor } from "../helpers/client.js";
import { useTestServer, type RecordedRequest } from "../helpers/server.js";

const server = await useTestServer();

interface LogPage {
  entries: string[];
  forwardToken?: string;
  truncated?: boolean;
}

/**
 * A run whose log pages are `pages(n)` for the n-th log request, and which ends after
 * `endAfterMs`; every request is recorded by the server.
 */
function runWithLog(pages: (n: number, request: RecordedRequest) => LogPage, endAfterMs: number) {
  const start = performance.now();
  let logRequests = 0;
  server.handle((request) => {
    if (request.pathname.endsWith("/log")) return { body: { log: pages(logRequests++, request) } };
    const status = performance.now() - start > endAfterMs ? "SUCCEEDED" : "RUNNING";
    return { body: { workflow: { id: "w1", status } } };
  });
}

async function follow(): Promise<string[]> {
  const lines: string[] = [];
  const client = clientFor(server);
  for await (const line of followRunLog(client, "w1", {
    pollIntervalMs: 100,
    maxPollIntervalMs: 100,
  }))
    lines.push(line);
  return lines;
}
const logRequests = () => server.requests.filter((r) => r.pathname.endsWith("/log"));

describe("followRunLog", () => {
  test("a truncated page whose token never moves: polled at the poll interval, its line given once", async () => {
    runWithLog(() => ({ entries: ["line 1"], forwardToken: "T1", truncated: true }), 1000);
    const lines = await follow();
    expect(lines).toEqual(["line 1"]);
    // ~1 s at 100 ms a poll: about 10, not the 20/s of the limiter (or 300/s without it).
    expect(logRequests().length).toBeLessThan(25);
  });

  test("the same token answered again, then with more lines: each line once", async () => {
    runWithLog((n) => {
      if (n === 0) return { entries: ["a", "b"], forwardToken: "T1" };
      return { entries: n < 3 ? ["c"] : ["c", "d"], forwardToken: "T1" };
    }, 800);
    expect(await follow()).toEqual(["a", "b", "c", "d"]);
    expect(
      logRequests()
        .slice(1)
        .map((r) => r.query.get("next")),
    ).toEqual(
      logRequests()
        .slice(1)
        .map(() => "T1"),
    );
  });

  test("a log that restarts without a token: no line twice, the new lines given", async () => {
    runWithLog((n) => {
      if (n === 0) return { entries: ["a", "b"], forwardToken: "T1" };
      if (n === 1) return { entries: ["c"], forwardToken: "T2" };
      return { entries: n < 4 ? ["a", "b", "c"] : ["a", "b", "c", "d", "e"] };
    }, 800);
    expect(await follow()).toEqual(["a", "b", "c", "d", "e"]);
    // Once the log came without a token, it is read from its start, without `next`.
    expect(logRequests().at(-1)?.query.get("next")).toBeNull();
    expect(logRequests()[1]?.query.get("next")).toBe("T1");
  });
});

describe("followRunLog on a log that starts over", () => {
  test("a resumed run's log replacing the old one: its new lines given from its start, once each", async () => {
    runWithLog((n) => {
      if (n < 2) return { entries: ["a", "b", "c"] };
      if (n < 4) return { entries: ["a", "x"] };
      return { entries: ["a", "x", "y", "z"] };
    }, 800);
    expect(await follow()).toEqual(["a", "b", "c", "a", "x", "y", "z"]);
  });
});

describe("paginate over a server that ignores offset", () => {
  test("with totalSize null: a SeqeraApiError after the first repeated page, not 6,000 items", async () => {
    const page = Array.from({ length: 100 }, (_, i) => ({ id: `w${i}`, status: "RUNNING" }));
    server.handle(() => ({
      body: { workflows: page.map((workflow) => ({ workflow })), totalSize: null },
    }));
    const items: unknown[] = [];
    const error = await (async () => {
      for await (const item of clientFor(server).paginate("/workflow")) items.push(item);
    })().then(
      () => undefined,
      (e: unknown) => e as SeqeraApiError,
    );
    expect(error).toBeInstanceOf(SeqeraApiError);
    expect(error?.message).toBe(
      "GET /workflow answered the same 100 items at offset 100 as at offset 0: the server ignores offset, so this list cannot be read past the 100 items already read. Narrow it with the operation's filters (a search, say) so that it fits in one page.",
    );
    expect(items).toHaveLength(100);
    expect(server.requests.map((r) => r.query.get("offset"))).toEqual(["0", "100"]);
  });

  test("distinct full pages are read to the end", async () => {
    server.handle((request) => {
      const offset = Number(request.query.get("offset"));
      const count = offset >= 250 ? 0 : Math.min(100, 250 - offset);
      const workflows = Array.from({ length: count }, (_, i) => ({
        workflow: { id: `w${offset + i}` },
      }));
      return { body: { workflows, totalSize: null } };
    });
    let count = 0;
    for await (const _ of clientFor(server).paginate("/workflow")) count++;
    expect(count).toBe(250);
  });
});
