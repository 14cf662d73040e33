/**
 * Redirects never carry the token or a request body to another origin, never turn a call into
 * another method, and still let downloads reach presigned storage URLs.
 */
import { afterAll, describe, expect, test } from "vitest";
import { RedirectError } from "../../src/index.js";
import { clientFor, TOKEN } from "../helpers/client.js";
import { startServer, useTestServer } from "../helpers/server.js";
import { failure } from "../helpers/calls.js";
import { maxInWindow } from "../helpers/strict-server.js";
import { startLateReadingServer } from "../limits/late-reading-server.js";
import { expect429sLearnt, recordSends } from "../limits/stack.js";

const api = await useTestServer();
// Another port of 127.0.0.1 is another origin.
const elsewhere = await startServer(() => ({
  headers: { "content-type": "application/octet-stream" },
  body: Buffer.from("stored bytes"),
}));
afterAll(() => elsewhere.close());

const redirect = (status: number, location: string) => ({ status, headers: { location } });
const credentials = {
  body: {
    credentials: {
      name: "aws",
      provider: "aws" as const,
      keys: { discriminator: "aws" as const, secretKey: "s3cr3t" },
    },
  },
};

describe("requests with a body, or methods other than GET and HEAD", () => {
  test.each([307, 308, 302, 301, 303])(
    "a cross-origin %i is a RedirectError naming the location; nothing reaches the other origin",
    async (status) => {
      elsewhere.reset();
      api.reply(redirect(status, `${elsewhere.url}/collect/creds?session=abc`));
      const error = await failure(clientFor(api).POST("/credentials", credentials));
      expect(error).toBeInstanceOf(RedirectError);
      expect((error as RedirectError).location).toBe(`${elsewhere.url}/collect/creds`);
      expect(error.message).toBe(
        `POST /credentials was redirected (${status}) to ${elsewhere.url}/collect/creds: another origin, not followed: neither the token nor the request body leave ${api.url}.`,
      );
      expect(error.message).not.toContain("session=abc");
      expect(elsewhere.requests).toHaveLength(0);
      expect(api.requests).toHaveLength(1);
    },
  );

  test("a DELETE redirected elsewhere is not followed either", async () => {
    elsewhere.reset();
    api.reply(redirect(307, `${elsewhere.url}/workflow/w1`));
    const error = await failure(
      clientFor(api).DELETE("/workflow/{workflowId}", { params: { path: { workflowId: "w1" } } }),
    );
    expect(error).toBeInstanceOf(RedirectError);
    expect(elsewhere.requests).toHaveLength(0);
  });

  test("a same-origin 307 is followed with the same method, body and token", async () => {
    api.reply(redirect(307, "/v2/credentials"), { body: { credentialsId: "c1" } });
    await expect(clientFor(api).POST("/credentials", credentials)).resolves.toEqual({
      credentialsId: "c1",
    });
    const [first, second] = api.requests;
    expect(second!.method).toBe("POST");
    expect(second!.pathname).toBe("/v2/credentials");
    expect(second!.body.toString()).toBe(first!.body.toString());
    expect(JSON.parse(second!.body.toString())).toEqual(credentials.body);
    expect(second!.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  test.each([301, 302, 303])(
    "a same-origin %i that would turn a POST into a GET is a RedirectError, never a success",
    async (status) => {
      api.reply(redirect(status, "/credentials/c1"), { body: { credentials: {} } });
      const error = await failure(clientFor(api).POST("/credentials", credentials));
      expect(error).toBeInstanceOf(RedirectError);
      expect(error.message).toMatch(/would turn the POST into a GET/);
      expect(api.requests).toHaveLength(1);
    },
  );
});

describe("GET and HEAD", () => {
  const download = () =>
    clientFor(api).GET("/datasets/{datasetId}/v/{version}/n/{fileName}", {
      params: { path: { datasetId: "d1", version: "1", fileName: "samples.csv" } },
    });

  test.each([302, 307])(
    "a %i to a presigned URL elsewhere is followed, without the token",
    async (status) => {
      elsewhere.reset();
      api.reply(redirect(status, `${elsewhere.url}/bucket/samples.csv?X-Amz-Signature=abc`));
      const blob = await download();
      expect(await blob.text()).toBe("stored bytes");
      expect(api.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
      expect(elsewhere.requests).toHaveLength(1);
      expect(elsewhere.requests[0]!.url).toBe("/bucket/samples.csv?X-Amz-Signature=abc");
      expect(elsewhere.requests[0]!.headers.authorization).toBeUndefined();
      expect(elsewhere.requests[0]!.headers["accept-version"]).toBe("1");
    },
  );

  test("once a chain has left the API's origin, the token is not sent again, even back there", async () => {
    elsewhere.reset();
    elsewhere.reply(redirect(302, `${api.url}/back`));
    api.reply(redirect(302, `${elsewhere.url}/hop`), {
      headers: { "content-type": "application/octet-stream" },
      body: "x",
    });
    await download();
    expect(api.requests.map((r) => [r.pathname, r.headers.authorization])).toEqual([
      ["/datasets/d1/v/1/n/samples.csv", `Bearer ${TOKEN}`],
      ["/back", undefined],
    ]);
  });

  test("more than 10 redirects, or one to another scheme, is a RedirectError", async () => {
    api.handle(() => redirect(302, "/loop"));
    try {
      const error = await failure(download());
      expect(error).toBeInstanceOf(RedirectError);
      expect(error.message).toMatch(/more than 10 redirects/);
      expect(api.requests).toHaveLength(11);
    } finally {
      api.handle(() => ({ body: {} }));
    }
    api.reply(redirect(302, "file:///etc/passwd"));
    await expect(download()).rejects.toThrow(/not an http\(s\) URL/);
  });
});

describe("the rate limit", () => {
  test("each hop that carries the token takes a slot: 40 GETs answered by a same-origin 307 are written 20 a second", async () => {
    // A strict limiter that reads every request at once and answers 429 past 20 in a second.
    const server = await startLateReadingServer({
      workers: Infinity,
      workMs: () => 0,
      answer: ({ url }) =>
        url.startsWith("/hop/")
          ? { status: 307, headers: { location: url.replace("/hop/", "/moved/") } }
          : { status: 200 },
    });
    const client = clientFor(
      { url: server.url, token: `redirects-${Math.random()}` },
      { rateLimit: {}, retry: {} },
    );
    // The limiter's own pace, as written to the sockets: on a busy machine the server may read
    // some late, answer 429 (retried) and teach the limiter.
    const recording = recordSends();
    try {
      const calls = Array.from({ length: 40 }, (_, i) => client.raw.request("GET", `/hop/${i}`));
      const statuses = (await Promise.all(calls)).map(({ response }) => response.status);
      expect(statuses).toEqual(Array.from({ length: 40 }, () => 200));
      const answered = server.arrivals.filter((a) => a.status !== 429);
      expect(answered).toHaveLength(80);
      expect(maxInWindow(recording.sends, 1000)).toBeLessThanOrEqual(20);
      expect429sLearnt(server.arrivals, recording.sends);
    } finally {
      recording.stop();
      await client.close();
      await server.close();
    }
  });
});
