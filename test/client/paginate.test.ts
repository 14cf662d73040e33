/**
 * client.paginate against a loopback list server: GET /workflow pages with max/offset (capped at
 * 100 like the service, optionally lying about its total), GET /data-links/{id}/browse with
 * nextPageToken.
 */
import { beforeEach, describe, expect, test } from "vitest";
import { operations } from "../../generated/operations.js";
import { clientFor } from "../helpers/client.js";
import { useTestServer } from "../helpers/server.js";
import { collect } from "../helpers/calls.js";
import { recordSends } from "../limits/stack.js";

/** How the list server behaves in the current test. */
const listing = {
  total: 0,
  /** A server capping pages lower than the service's 100. */
  cap: 100,
  /** Answer full pages whatever `max` asked. */
  ignoreMax: false,
  reportTotal: true,
  /** End with an empty nextPageToken instead of none. */
  emptyToken: false,
};
beforeEach(() => {
  Object.assign(listing, {
    total: 0,
    cap: 100,
    ignoreMax: false,
    reportTotal: true,
    emptyToken: false,
  });
});
/** Items as the runs list gives them: each run's id in its `workflow` (the client checks it). */
const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ workflow: { id: String(i) } }));

const server = await useTestServer((request) => {
  const q = (name: string) => request.query.get(name);
  const all = rows(listing.total);
  if (request.pathname === "/workflow") {
    const max = listing.ignoreMax ? listing.cap : Math.min(Number(q("max")), listing.cap);
    const offset = Number(q("offset"));
    const reported = listing.reportTotal ? { totalSize: listing.total } : {};
    return { body: { workflows: all.slice(offset, offset + max), ...reported } };
  }
  const start = Number(q("nextPageToken") ?? 0);
  const end = Math.min(start + Number(q("pageSize")), listing.total);
  const next =
    end < listing.total
      ? { nextPageToken: String(end) }
      : listing.emptyToken
        ? { nextPageToken: "" }
        : {};
  return { body: { objects: all.slice(start, end), ...next } };
});

const queries = () => server.requests.map((r) => r.query);
const ids = (items: unknown[]) =>
  items.map((item) => (item as { workflow: { id: string } }).workflow.id);
const browse = (init = {}) =>
  clientFor(server).paginate("/data-links/{dataLinkId}/browse", {
    params: { path: { dataLinkId: "dl-1" } },
    ...init,
  });

describe("paginate, max/offset", () => {
  test("the generated table describes GET /workflow as offset paging with a total", () => {
    expect(operations["GET /workflow"]!.pagination).toEqual({
      style: "offset",
      items: "workflows",
      total: "totalSize",
      sizeParam: "max",
    });
  });

  test("walks all items in pages of 100 and stops at the total without an extra request", async () => {
    listing.total = 250;
    const items = await collect(clientFor(server).paginate("/workflow"));
    expect(ids(items)).toEqual(ids(rows(250)));
    expect(queries().map((q) => [q.get("max"), q.get("offset")])).toEqual([
      ["100", "0"],
      ["100", "100"],
      ["100", "200"],
    ]);
  });

  test("stops at the total when it falls on a page boundary", async () => {
    listing.total = 200;
    const pages = await collect(clientFor(server).paginate("/workflow").pages());
    expect(pages.map((p) => [p.offset, p.items.length, p.total])).toEqual([
      [0, 100, 200],
      [100, 100, 200],
    ]);
    expect(server.requests).toHaveLength(2);
  });

  test("without a total, stops on a short page, or on an empty page", async () => {
    listing.reportTotal = false;
    for (const [total, requests] of [
      [130, 2],
      [100, 2],
    ] as const) {
      server.reset();
      listing.total = total;
      expect(await collect(clientFor(server).paginate("/workflow"))).toHaveLength(total);
      expect(server.requests).toHaveLength(requests);
    }
  });

  test("caps the page size at 100 and honours a smaller one and a limit", async () => {
    listing.total = 150;
    const client = clientFor(server);
    const big = await collect(client.paginate("/workflow", { pageSize: 500 }).pages());
    expect(big.map((p) => p.items.length)).toEqual([100, 50]);
    const limited = await collect(client.paginate("/workflow", { pageSize: 40, limit: 90 }));
    expect(limited).toHaveLength(90);
    expect(queries().map((q) => q.get("max"))).toEqual(["100", "100", "40", "40", "10"]);
  });

  test("an early break fetches no further page", async () => {
    listing.total = 1000;
    let seen = 0;
    for await (const item of clientFor(server).paginate("/workflow")) {
      seen++;
      if (item.workflow.id === "150") break;
    }
    expect(seen).toBe(151);
    expect(server.requests).toHaveLength(2);
  });

  test("keeps the call's own query parameters and options on every page", async () => {
    listing.total = 30;
    const client = clientFor(server, { workspaceId: 7 });
    await collect(
      client.paginate("/workflow", {
        params: { query: { search: "status:FAILED" } },
        pageSize: 10,
        headers: { "x-trace": "t1" },
      }),
    );
    expect(server.requests.map((r) => r.url)).toEqual([
      "/workflow?search=status%3AFAILED&max=10&offset=0&workspaceId=7",
      "/workflow?search=status%3AFAILED&max=10&offset=10&workspaceId=7",
      "/workflow?search=status%3AFAILED&max=10&offset=20&workspaceId=7",
    ]);
    expect(server.requests.every((r) => r.headers["x-trace"] === "t1")).toBe(true);
  });

  test("pages go through the rate limiter", async () => {
    listing.total = 50;
    const client = clientFor(server, {
      token: `pages-limited-${Math.random()}`,
      rateLimit: { perSecond: 2 },
    });
    const recording = recordSends();
    try {
      expect(await collect(client.paginate("/workflow", { pageSize: 10 }))).toHaveLength(50);
    } finally {
      recording.stop();
    }
    expect(server.requests).toHaveLength(5);
    // Five pages at two per second: the fifth left two windows after the first (as this process
    // sent them; the server in it may read the first late on a starved machine).
    const times = recording.sends.map((r) => r.at);
    expect(times).toHaveLength(5);
    expect(times[4]! - times[0]!).toBeGreaterThanOrEqual(2000);
  });

  test("with a total, a server capping pages below the asked size is still walked to the end", async () => {
    Object.assign(listing, { total: 100, cap: 60 });
    const items = await collect(clientFor(server).paginate("/workflow"));
    expect(ids(items)).toEqual(ids(rows(100)));
    expect(queries().map((q) => q.get("offset"))).toEqual(["0", "60"]);
  });

  test("a server answering more than the asked size skips no item", async () => {
    Object.assign(listing, { total: 30, ignoreMax: true, cap: 20 });
    const items = await collect(clientFor(server).paginate("/workflow", { pageSize: 10 }));
    expect(ids(items)).toEqual(ids(rows(30)));
  });
});

describe("paginate, nextPageToken", () => {
  test("follows nextPageToken until it is absent", async () => {
    listing.total = 25;
    const pages = await collect(browse({ pageSize: 10 }).pages());
    expect(pages.map((p) => p.items.length)).toEqual([10, 10, 5]);
    expect(queries().map((q) => q.get("nextPageToken"))).toEqual([null, "10", "20"]);
  });

  test("stops on an empty token, and at a limit without fetching more", async () => {
    Object.assign(listing, { total: 15, emptyToken: true });
    expect(await collect(browse({ pageSize: 10 }))).toHaveLength(15);
    listing.total = 100;
    expect(await collect(browse({ pageSize: 10, limit: 15 }))).toHaveLength(15);
    expect(server.requests).toHaveLength(4);
  });

  test("an abort stops the iteration", async () => {
    listing.total = 100;
    const controller = new AbortController();
    const iterator = browse({ pageSize: 10, signal: controller.signal })[Symbol.asyncIterator]();
    await iterator.next();
    controller.abort();
    for (let i = 0; i < 9; i++) await iterator.next(); // the rest of the first page
    await expect(iterator.next()).rejects.toMatchObject({ name: "AbortError" });
    expect(server.requests).toHaveLength(1);
  });
});
