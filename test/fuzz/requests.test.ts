/**
 * User input → the request: any path parameter, query value (in its operation's style) or
 * header a call is given either reaches the server exactly as given, or the call throws a
 * ConfigurationError before anything is sent.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { ConfigurationError } from "../../src/index.js";
import { useTestServer } from "../helpers/server.js";
import { clientFor } from "../helpers/client.js";
import { runs } from "./settings.js";

const server = await useTestServer();

/** Any text, lone surrogates and control characters included. */
const anyText = fc.string({ unit: "binary", maxLength: 40 });

/** The call's outcome: what the server received, or the ConfigurationError it threw. */
async function sent(call: () => Promise<unknown>) {
  server.reset();
  try {
    await call();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(server.requests).toEqual([]);
    return undefined;
  }
  expect(server.requests).toHaveLength(1);
  return server.requests[0]!;
}

/** The raw query's values by name, each split on the literal commas of a non-exploded array. */
function rawQuery(url: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const search = url.includes("?") ? url.slice(url.indexOf("?") + 1) : "";
  for (const pair of search === "" ? [] : search.split("&")) {
    const at = pair.indexOf("=");
    const name = decodeURIComponent(pair.slice(0, at));
    out.set(name, [...(out.get(name) ?? []), pair.slice(at + 1)]);
  }
  return out;
}

describe("user input → the request", () => {
  test("a path parameter is one segment, decoded to exactly the value given", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(anyText, fc.integer(), fc.double(), fc.constantFrom(".", "..", "%2e", "/")),
        async (workflowId) => {
          const request = await sent(() =>
            clientFor(server).GET("/workflow/{workflowId}", {
              params: { path: { workflowId: workflowId as string } },
            }),
          );
          if (request === undefined) return;
          const segment = request.url.split("?")[0]!.slice("/workflow/".length);
          expect(segment).not.toContain("/");
          expect(decodeURIComponent(segment)).toBe(String(workflowId));
        },
      ),
      // Found by this property: a lone surrogate threw encodeURIComponent's URIError.
      runs(100, [["\uD800"], ["a\uDFFFb"]]),
    );
  });

  test("query values arrive as given: scalars once, attributes joined by literal commas", async () => {
    await fc.assert(
      fc.asyncProperty(
        anyText,
        fc.integer({ min: 0, max: 1000 }),
        fc.array(anyText, { maxLength: 4 }),
        async (search, max, attributes) => {
          const request = await sent(() =>
            clientFor(server).GET("/workflow", {
              params: { query: { search, max, attributes: attributes as never } },
            }),
          );
          if (request === undefined) return;
          const query = rawQuery(request.url);
          expect(query.get("search")?.map(decodeURIComponent)).toEqual([search]);
          expect(query.get("max")).toEqual([String(max)]);
          const joined = query.get("attributes");
          if (attributes.length === 0) expect(joined).toBeUndefined();
          else expect(joined?.[0]?.split(",").map(decodeURIComponent)).toEqual(attributes);
        },
      ),
      runs(100, [
        ["\uDC00", 1, []],
        ["", 0, ["a,b"]],
      ]),
    );
  });

  test("a query value that is not a string, number, boolean or array of them is refused", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.object(), fc.array(fc.object(), { minLength: 1 })),
        async (v) => {
          const request = await sent(() =>
            clientFor(server).GET("/workflow", { params: { query: { search: v as never } } }),
          );
          expect(request).toBeUndefined();
        },
      ),
      runs(20, [[[{}]]]),
    );
  });

  test("a header arrives with the value given (less HTTP's edge whitespace), or is refused", async () => {
    const name = fc.oneof(
      fc.stringMatching(/^x-[a-z0-9!#$%&'*+.^_`|~-]{1,20}$/),
      anyText,
      fc.constantFrom(
        ...["connection", "content-length", "expect", "keep-alive", "transfer-encoding", "upgrade"],
        ...["host", "te", "trailer", "proxy-authorization", "authorization", "accept-version"],
      ),
    );
    await fc.assert(
      fc.asyncProperty(name, anyText, async (header, value) => {
        const request = await sent(() =>
          clientFor(server).GET("/user-info", { headers: { [header]: value } }),
        );
        if (request === undefined) return;
        expect(request.headers[header.toLowerCase()]).toBe(
          value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, ""),
        );
      }),
      runs(100, [
        ["x-a", "line\r\nInjected: 1"],
        ["x-a", "é"],
        ["bad name", "v"],
        // Found by this property: fetch refused these only when sending, as a ConnectionError,
        // or (Host) dropped the value.
        ["x-#", "\u0001"],
        ["connection", ""],
        ["host", ""],
      ]),
    );
  });
});
