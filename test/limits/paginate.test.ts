import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Pagination } from "../../generated/operations.js";
import { operations } from "../../generated/operations.js";
import { paginate, type FetchPage } from "../../src/paginate.js";
import { rateLimitLayer } from "../../src/rate-limit.js";
import { startStrictServer, type StrictServer } from "../helpers/strict-server.js";
import { call, stack } from "./stack.js";

/**
 * A list server: /workflow pages over `total` rows with max/offset (capping max at 100 like the
 * service, and optionally lying about totalSize); /data-link pages with nextPageToken.
 */
let server: StrictServer;
const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i }));
beforeAll(async () => {
  server = await startStrictServer({
    perSecond: 20,
    reply: (arrival) => {
      const url = new URL(arrival.url, "http://x");
      const q = (name: string) => url.searchParams.get(name);
      const total = Number(q("total") ?? 0);
      if (url.pathname === "/workflow") {
        // The service caps max at 100; `cap` plays a server with a lower cap, `ignoreMax` one
        // that answers full pages whatever was asked.
        const cap = Number(q("cap") ?? 100);
        const max = q("ignoreMax") ? cap : Math.min(Number(q("max")), cap);
        const offset = Number(q("offset"));
        const page = rows(total).slice(offset, offset + max);
        const reported = q("reportTotal") === "no" ? {} : { totalSize: total };
        return { json: { workflows: page, ...reported } };
      }
      const size = Number(q("pageSize"));
      const start = Number(q("nextPageToken") ?? 0);
      const end = Math.min(start + size, total);
      const next =
        end < total ? { nextPageToken: String(end) } : q("emptyToken") ? { nextPageToken: "" } : {};
      return { json: { objects: rows(total).slice(start, end), ...next } };
    },
  });
});
afterAll(() => server.close());

const offsetStyle = operations["GET /workflow"]!.pagination!;
const tokenStyle: Pagination = { style: "token", items: "objects", sizeParam: "pageSize" };

/** A real fetch of one page of `path` with extra query parameters, like the client's. */
function fetcher(path: string, extra: Record<string, string>, token = "pages"): FetchPage {
  const transport = stack([]);
  return async (query, signal) => {
    const params = new URLSearchParams({
      ...extra,
      ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
    });
    const response = await call(transport, `${server.url}${path}?${params}`, { signal, token });
    return response.json();
  };
}
const requestsTo = (path: string, mark: number) =>
  server.arrivals
    .slice(mark)
    .filter((a) => a.url.startsWith(path + "?"))
    .map((a) => new URL(a.url, "http://x").searchParams);

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of iterable) out.push(x);
  return out;
}

describe("paginate, max/offset", () => {
  it("the generated table describes GET /workflow as offset paging with a total", () => {
    expect(offsetStyle).toEqual({
      style: "offset",
      items: "workflows",
      total: "totalSize",
      sizeParam: "max",
    });
  });

  it("walks all items in pages of 100 and stops at the total without an extra request", async () => {
    const mark = server.arrivals.length;
    const items = await collect(
      paginate<{ id: number }>(fetcher("/workflow", { total: "250" }), offsetStyle),
    );
    expect(items.map((i) => i.id)).toEqual(rows(250).map((r) => r.id));
    const sent = requestsTo("/workflow", mark);
    expect(sent.map((q) => [q.get("max"), q.get("offset")])).toEqual([
      ["100", "0"],
      ["100", "100"],
      ["100", "200"],
    ]);
  });

  it("stops at the total when it falls on a page boundary", async () => {
    const mark = server.arrivals.length;
    const pages = await collect(
      paginate(fetcher("/workflow", { total: "200" }), offsetStyle).pages(),
    );
    expect(pages.map((p) => [p.offset, p.items.length, p.total])).toEqual([
      [0, 100, 200],
      [100, 100, 200],
    ]);
    expect(requestsTo("/workflow", mark)).toHaveLength(2);
  });

  it("without a total, stops on a short page, or on an empty page", async () => {
    for (const [total, requests] of [
      ["130", 2],
      ["100", 2],
    ] as const) {
      const mark = server.arrivals.length;
      const items = await collect(
        paginate(fetcher("/workflow", { total, reportTotal: "no" }), offsetStyle),
      );
      expect(items).toHaveLength(Number(total));
      expect(requestsTo("/workflow", mark)).toHaveLength(requests);
    }
  });

  it("caps the page size at 100 and honours a smaller one and a limit", async () => {
    const mark = server.arrivals.length;
    const big = await collect(
      paginate(fetcher("/workflow", { total: "150" }), offsetStyle, { pageSize: 500 }).pages(),
    );
    expect(big.map((p) => p.items.length)).toEqual([100, 50]);
    const limited = await collect(
      paginate(fetcher("/workflow", { total: "150" }), offsetStyle, { pageSize: 40, limit: 90 }),
    );
    expect(limited).toHaveLength(90);
    expect(requestsTo("/workflow", mark).map((q) => q.get("max"))).toEqual([
      "100",
      "100",
      "40",
      "40",
      "10",
    ]);
  });

  it("an early break fetches no further page", async () => {
    const mark = server.arrivals.length;
    let seen = 0;
    for await (const item of paginate<{ id: number }>(
      fetcher("/workflow", { total: "1000" }),
      offsetStyle,
    )) {
      seen++;
      if (item.id === 150) break;
    }
    expect(seen).toBe(151);
    expect(requestsTo("/workflow", mark)).toHaveLength(2);
  });

  it("pages go through the rate limiter", async () => {
    const token = `pages-limited-${Math.random()}`;
    const transport = stack([rateLimitLayer(token, { perSecond: 2 })]);
    const fetchPage: FetchPage = async (query) =>
      (
        await call(
          transport,
          `${server.url}/workflow?total=50&max=${query.max}&offset=${query.offset}`,
          { token },
        )
      ).json();
    const mark = server.arrivals.length;
    const items = await collect(paginate(fetchPage, offsetStyle, { pageSize: 10 }));
    expect(items).toHaveLength(50);
    const times = server.arrivals.slice(mark).map((a) => a.at);
    expect(times).toHaveLength(5);
    // Five pages at two per second: the fifth waited for two windows.
    expect(times[4]! - times[0]!).toBeGreaterThanOrEqual(2000);
  });
  // After the rate-limiter test, so the strict server's 20/s leaves room for these pages.
  it("with a total, a server capping pages below the asked size is still walked to the end", async () => {
    const mark = server.arrivals.length;
    const items = await collect(
      paginate<{ id: number }>(fetcher("/workflow", { total: "100", cap: "60" }), offsetStyle),
    );
    expect(items.map((i) => i.id)).toEqual(rows(100).map((r) => r.id));
    expect(requestsTo("/workflow", mark).map((q) => q.get("offset"))).toEqual(["0", "60"]);
  });

  it("a server answering more than the asked size skips no item", async () => {
    const items = await collect(
      paginate<{ id: number }>(
        fetcher("/workflow", { total: "30", ignoreMax: "1", cap: "20" }),
        offsetStyle,
        { pageSize: 10 },
      ),
    );
    expect(items.map((i) => i.id)).toEqual(rows(30).map((r) => r.id));
  });
});

describe("paginate, nextPageToken", () => {
  it("follows nextPageToken until it is absent", async () => {
    const mark = server.arrivals.length;
    const pages = await collect(
      paginate(fetcher("/data-link", { total: "25" }), tokenStyle, { pageSize: 10 }).pages(),
    );
    expect(pages.map((p) => p.items.length)).toEqual([10, 10, 5]);
    expect(requestsTo("/data-link", mark).map((q) => q.get("nextPageToken"))).toEqual([
      null,
      "10",
      "20",
    ]);
  });

  it("stops on an empty token, and at a limit without fetching more", async () => {
    const mark = server.arrivals.length;
    const all = await collect(
      paginate(fetcher("/data-link", { total: "15", emptyToken: "1" }), tokenStyle, {
        pageSize: 10,
      }),
    );
    expect(all).toHaveLength(15);
    const some = await collect(
      paginate(fetcher("/data-link", { total: "100" }), tokenStyle, { pageSize: 10, limit: 15 }),
    );
    expect(some).toHaveLength(15);
    expect(requestsTo("/data-link", mark)).toHaveLength(4);
  });

  it("an abort stops the iteration", async () => {
    const controller = new AbortController();
    const iterator = paginate(fetcher("/data-link", { total: "100" }), tokenStyle, {
      pageSize: 10,
      signal: controller.signal,
    })[Symbol.asyncIterator]();
    await iterator.next();
    controller.abort();
    for (let i = 0; i < 9; i++) await iterator.next(); // the rest of the first page
    await expect(iterator.next()).rejects.toMatchObject({ name: "AbortError" });
  });
});
