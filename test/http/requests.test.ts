import { describe, expect, test } from "vitest";
import { operations } from "../../generated/operations.js";
import { ConfigurationError } from "../../src/index.js";
import { useTestServer } from "../helpers/server.js";
import { clientFor, TOKEN } from "../helpers/client.js";

const server = await useTestServer();

const last = () => server.requests.at(-1)!;

describe("headers", () => {
  test("sends the bearer token and Accept-Version 1 by default", async () => {
    await clientFor(server).GET("/user-info");
    expect(last().headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(last().headers["accept-version"]).toBe("1");
  });

  test("sends the client's Accept-Version, and a call's own over it", async () => {
    const client = clientFor(server, { acceptVersion: "2" });
    await client.GET("/user-info");
    expect(last().headers["accept-version"]).toBe("2");
    await client.GET("/user-info", { acceptVersion: "3" });
    expect(last().headers["accept-version"]).toBe("3");
    await client.GET("/user-info");
    expect(last().headers["accept-version"]).toBe("2");
  });

  test("sends extra headers a call sets", async () => {
    await clientFor(server).GET("/user-info", { headers: { "X-Request-Id": "r-1" } });
    expect(last().headers["x-request-id"]).toBe("r-1");
    await clientFor(server).GET("/user-info", { headers: [["X-Request-Id", "r-2"]] });
    expect(last().headers["x-request-id"]).toBe("r-2");
    await clientFor(server).GET("/user-info", { headers: new Headers({ "X-Request-Id": "r-3" }) });
    expect(last().headers["x-request-id"]).toBe("r-3");
  });
});

describe("custom fetch", () => {
  test("sends every request through it, with the attempt's abort signal", async () => {
    const seen: { url: string; auth: string | null; signal: boolean }[] = [];
    const client = clientFor(server, {
      fetch: (request, init) => {
        seen.push({
          url: request.url,
          auth: request.headers.get("authorization"),
          signal: init?.signal instanceof AbortSignal,
        });
        return fetch(request, init);
      },
    });
    server.reply({ body: { user: { userName: "ada" } } });
    expect(await client.GET("/user-info")).toEqual({ user: { userName: "ada" } });
    expect(seen).toEqual([
      { url: `${server.url}/user-info`, auth: `Bearer ${TOKEN}`, signal: true },
    ]);
    expect(server.requests).toHaveLength(1);
  });
});

describe("query serialization follows each operation's schema", () => {
  test("checks the pinned schema really mixes both styles for `attributes`", () => {
    expect(operations["GET /compute-envs"]!.query.attributes!.explode).toBe(false);
    expect(operations["GET /compute-envs/{computeEnvId}"]!.query.attributes!.explode).toBe(true);
    expect(operations["GET /workflow"]!.query.attributes!.explode).toBe(false);
    expect(operations["GET /actions"]!.query.attributes!.explode).toBe(true);
  });

  test("comma-joins `attributes` on GET /compute-envs (explode: false)", async () => {
    await clientFor(server).GET("/compute-envs", {
      params: { query: { attributes: ["labels", "resources"], status: "AVAILABLE" } },
    });
    expect(last().url).toBe("/compute-envs?attributes=labels,resources&status=AVAILABLE");
    expect(last().query.get("attributes")).toBe("labels,resources");
  });

  test("repeats `attributes` on GET /compute-envs/{computeEnvId} (explode: true)", async () => {
    await clientFor(server).GET("/compute-envs/{computeEnvId}", {
      params: { path: { computeEnvId: "ce1" }, query: { attributes: ["labels", "resources"] } },
    });
    expect(last().url).toBe("/compute-envs/ce1?attributes=labels&attributes=resources");
    expect(last().query.getAll("attributes")).toEqual(["labels", "resources"]);
  });

  test("comma-joins on GET /workflow and repeats on GET /actions", async () => {
    const client = clientFor(server);
    await client.GET("/workflow", {
      params: { query: { attributes: ["labels", "optimized"], max: 10 } },
    });
    expect(last().query.getAll("attributes")).toEqual(["labels,optimized"]);
    expect(last().query.get("max")).toBe("10");
    await client.GET("/actions", { params: { query: { attributes: ["labels"], workspaceId: 5 } } });
    expect(last().url).toBe("/actions?attributes=labels&workspaceId=5");
  });

  // The published schema types these items as `object` (really strings), hence request().
  test("repeats `dirs` and `files` on GET /data-links/{dataLinkId}/script/download", async () => {
    await clientFor(server).request("GET", "/data-links/{dataLinkId}/script/download", {
      params: { path: { dataLinkId: "dl-1" }, query: { dirs: ["a/", "b c/"], files: ["x.txt"] } },
    });
    expect(last().query.getAll("dirs")).toEqual(["a/", "b c/"]);
    expect(last().query.getAll("files")).toEqual(["x.txt"]);
  });

  test("skips undefined values and empty arrays, and encodes reserved characters", async () => {
    await clientFor(server).GET("/workflow", {
      params: { query: { search: "name:a&b=c", max: undefined, attributes: [] } },
    });
    expect(last().url).toBe("/workflow?search=name%3Aa%26b%3Dc");
    expect(last().query.get("search")).toBe("name:a&b=c");
  });
});

describe("path parameters can never change the operation", () => {
  test("refuses a call missing a path parameter before sending it", async () => {
    const client = clientFor(server);
    await expect(
      client.request("GET", "/workflow/{workflowId}", { params: { path: {} } }),
    ).rejects.toThrow(/GET \/workflow\/\{workflowId\} needs the path parameter "workflowId"/);
    await expect(
      client.request("GET", "/workflow/{workflowId}", { params: { path: { workflowId: "" } } }),
    ).rejects.toBeInstanceOf(ConfigurationError);
    expect(server.requests).toHaveLength(0);
  });

  test.each([".", ".."])(
    "refuses %j, which the URL parser would resolve as a dot segment, before any request",
    async (value) => {
      const client = clientFor(server);
      // Sent, this was DELETE /credentials/c1: another operation. (The types ask for numbers
      // here; the ids come from user input or JavaScript callers all the same.)
      const error = await client
        .request("DELETE", "/identities/{managedIdentityId}/credentials/{managedCredentialsId}", {
          params: { path: { managedIdentityId: value, managedCredentialsId: "c1" } },
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).toBe(
        `Path parameter "managedIdentityId" of DELETE /identities/{managedIdentityId}/credentials/{managedCredentialsId} is "${value}", a dot segment: the URL would name another path, so the call is refused.`,
      );
      // Sent, this was answered as ListDatasets.
      await expect(
        client.GET("/launch/{launchId}/datasets", { params: { path: { launchId: value } } }),
      ).rejects.toBeInstanceOf(ConfigurationError);
      expect(server.requests).toHaveLength(0);
    },
  );

  test.each([
    ["a/b c", "/workflow/a%2Fb%20c"],
    ["%2e%2e", "/workflow/%252e%252e"],
    [".%2E", "/workflow/.%252E"],
    ["../x", "/workflow/..%2Fx"],
    ["..\\", "/workflow/..%5C"],
    ["...", "/workflow/..."],
    ["a?b#c", "/workflow/a%3Fb%23c"],
    [" .. ", "/workflow/%20..%20"],
  ])("sends %j as exactly one segment: %s", async (workflowId, received) => {
    await clientFor(server).GET("/workflow/{workflowId}", { params: { path: { workflowId } } });
    expect(last().url).toBe(received);
    expect(last().pathname.split("/")).toHaveLength(3);
  });

  test("refuses a path parameter that is neither a string nor a finite number", async () => {
    const client = clientFor(server);
    for (const workflowId of [Number.NaN, { id: 1 }, ["a", "b"]]) {
      await expect(
        client.request("GET", "/workflow/{workflowId}", { params: { path: { workflowId } } }),
      ).rejects.toThrow(
        /Path parameter "workflowId" of GET \/workflow\/\{workflowId\} must be a string or a finite number/,
      );
    }
    expect(server.requests).toHaveLength(0);
  });
});

describe("bodies", () => {
  test("sends JSON bodies with their content type", async () => {
    server.reply({ body: { workflowId: "w1" } });
    const launch = { computeEnvId: "ce1", pipeline: "nf-core/rnaseq", workDir: "s3://bucket/work" };
    const data = await clientFor(server).POST("/workflow/launch", { body: { launch } });
    expect(data.workflowId).toBe("w1");
    expect(last().method).toBe("POST");
    expect(last().headers["content-type"]).toBe("application/json");
    expect(JSON.parse(last().body.toString())).toEqual({ launch });
  });

  test.each([
    ["/workspaces/{workspaceId}/datasets/{datasetId}/upload", { workspaceId: 7, datasetId: "ds1" }],
    ["/datasets/{datasetId}/upload", { datasetId: "ds1" }],
  ] as const)(
    "uploads a dataset to %s as multipart, part typed text/csv by default",
    async (path, pathParams) => {
      server.reply({ body: { version: { version: 1 } } });
      const csv = "sample,fastq\nA,a.fq.gz\n";
      const client = clientFor(server);
      const params = { path: pathParams as never, query: { header: true } };
      const data = await client.POST(path as "/datasets/{datasetId}/upload", {
        params,
        body: { file: new Blob([csv]) },
      });
      expect(data).toEqual({ version: { version: 1 } });
      expect(last().headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
      expect(last().query.get("header")).toBe("true");
      const form = await formOf(last());
      const file = form.get("file") as File;
      expect(file.type).toBe("text/csv");
      expect(file.name).toBe("file.csv");
      expect(await file.text()).toBe(csv);
    },
  );

  test("keeps a File's own name and media type (TSV)", async () => {
    server.reply({ body: {} });
    const tsv = new File(["sample\tfastq\n"], "samples.tsv", { type: "text/tab-separated-values" });
    await clientFor(server).POST("/datasets/{datasetId}/upload", {
      params: { path: { datasetId: "ds1" } },
      body: { file: tsv },
    });
    const file = (await formOf(last())).get("file") as File;
    expect(file.name).toBe("samples.tsv");
    expect(file.type).toBe("text/tab-separated-values");
    expect(await file.text()).toBe("sample\tfastq\n");
  });

  test("passes a ready FormData through untouched", async () => {
    server.reply({ body: {} });
    const form = new FormData();
    form.append("file", new Blob(["a,b\n"], { type: "text/csv" }), "mine.csv");
    await clientFor(server).POST("/datasets/{datasetId}/upload", {
      params: { path: { datasetId: "ds1" } },
      body: form as never,
    });
    const file = (await formOf(last())).get("file") as File;
    expect(file.name).toBe("mine.csv");
  });
});

/** Parse the recorded multipart body the way a Web server would. */
function formOf(recorded: { headers: Record<string, unknown>; body: Buffer }): Promise<FormData> {
  return new Request("http://127.0.0.1/", {
    method: "POST",
    headers: { "content-type": String(recorded.headers["content-type"]) },
    body: new Uint8Array(recorded.body),
  }).formData();
}
