import { describe, expect, test } from "vitest";
import { useTestServer } from "../helpers/server.js";
import { clientFor } from "../helpers/client.js";

const server = await useTestServer();

const LOG = "N E X T F L O W  ~  version 24.04.4\nLaunching `main.nf`\n";
const BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]);

describe("success bodies follow the operation table", () => {
  test("JSON operations resolve to the parsed body", async () => {
    server.reply({ body: { workflow: { id: "w1", status: "SUCCEEDED" } } });
    const data = await clientFor(server).GET("/workflow/{workflowId}", {
      params: { path: { workflowId: "w1" } },
    });
    expect(data.workflow?.status).toBe("SUCCEEDED");
  });

  test("text/plain log downloads resolve to a string", async () => {
    server.reply({ headers: { "content-type": "text/plain" }, body: LOG });
    const log = await clientFor(server).GET("/workflow/{workflowId}/download", {
      params: { path: { workflowId: "w1" }, query: { fileName: "nf-w1.log" } },
    });
    expect(log).toBe(LOG);
  });

  test("text/csv exports resolve to a string", async () => {
    server.reply({ headers: { "content-type": "text/csv" }, body: "id,event\n1,login\n" });
    const csv = await clientFor(server).GET("/admin/audit-logs-v2/export-csv");
    expect(csv).toBe("id,event\n1,login\n");
  });

  test("octet-stream downloads resolve to a Blob", async () => {
    server.reply({ headers: { "content-type": "application/octet-stream" }, body: BYTES });
    const blob = await clientFor(server).GET("/avatars/{avatarId}", {
      params: { path: { avatarId: "a1" } },
    });
    expect(blob).toBeInstanceOf(Blob);
    expect(Buffer.from(await blob.arrayBuffer())).toEqual(BYTES);
  });

  test("an HTML page (a login or proxy page) is an error, never a success, whatever the operation", async () => {
    const page = {
      headers: { "content-type": "text/html; charset=utf-8" },
      body: "<html>Sign in</html>",
    };
    server.reply(page, page, page);
    const client = clientFor(server);
    const html = /GET \/.* answered 200 with an HTML page, not the API/;
    await expect(
      client.GET("/workflow/{workflowId}/download", { params: { path: { workflowId: "w1" } } }),
    ).rejects.toThrow(html);
    await expect(
      client.POST("/workflow/{workflowId}/cancel", {
        params: { path: { workflowId: "w1" } },
        body: {},
      }),
    ).rejects.toThrow(/POST .* answered 200 with an HTML page/);
    await expect(client.GET("/service-info")).rejects.toThrow(html);
  });

  test("operations without content resolve to undefined", async () => {
    server.reply({ status: 204 });
    const data = await clientFor(server).DELETE("/workflow/{workflowId}", {
      params: { path: { workflowId: "w1" } },
    });
    expect(data).toBeUndefined();
  });
});

describe("per-call parseAs", () => {
  test('"stream" hands back the ReadableStream unread', async () => {
    server.reply({ headers: { "content-type": "text/plain" }, body: LOG });
    const stream = await clientFor(server).GET("/workflow/{workflowId}/download", {
      params: { path: { workflowId: "w1" } },
      parseAs: "stream",
    });
    expect(stream).toBeInstanceOf(ReadableStream);
    expect(await new Response(stream).text()).toBe(LOG);
  });

  test('"text" reads a JSON operation as text', async () => {
    server.reply({ body: { ok: true } });
    const text = await clientFor(server).GET("/service-info", { parseAs: "text" });
    expect(text).toBe('{"ok":true}');
  });
});

describe("raw", () => {
  test("resolves to the parsed body and the Response", async () => {
    server.reply({ headers: { "x-trace": "t1" }, body: { user: { userName: "ada" } } });
    const { data, response } = await clientFor(server).raw.GET("/user-info");
    expect(data.user?.userName).toBe("ada");
    expect(response.status).toBe(200);
    expect(response.headers.get("x-trace")).toBe("t1");
  });

  test("works for request() too", async () => {
    server.reply({ status: 201, body: { role: { name: "r" } } });
    const { data, response } = await clientFor(server).raw.request("post", "/roles", {
      body: { name: "r" },
    });
    expect(response.status).toBe(201);
    expect(data).toEqual({ role: { name: "r" } });
    expect(server.requests[0]!.method).toBe("POST");
  });
});

describe("request(), the untyped escape hatch", () => {
  test("calls any listed operation with its table entry", async () => {
    server.reply({ headers: { "content-type": "text/plain" }, body: LOG });
    const client = clientFor(server, { workspaceId: 9 });
    const log = await client.request("GET", "/workflow/{workflowId}/download", {
      params: { path: { workflowId: "w1" } },
    });
    expect(log).toBe(LOG);
    expect(server.requests[0]!.url).toBe("/workflow/w1/download?workspaceId=9");
  });

  test("reads paths the schema does not list by their Content-Type", async () => {
    const client = clientFor(server, { workspaceId: 9 });
    server.reply({ body: { a: 1 } });
    expect(await client.request("GET", "/not-in-schema")).toEqual({ a: 1 });
    server.reply({ headers: { "content-type": "text/plain" }, body: "plain" });
    expect(await client.request("GET", "/not-in-schema")).toBe("plain");
    server.reply({ headers: { "content-type": "application/octet-stream" }, body: BYTES });
    expect(await client.request("GET", "/not-in-schema")).toBeInstanceOf(Blob);
    // The default workspace is only added where the schema says the operation takes one.
    expect(server.requests.map((r) => r.url)).toEqual([
      "/not-in-schema",
      "/not-in-schema",
      "/not-in-schema",
    ]);
  });
});
