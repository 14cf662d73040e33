import { freePort } from "../helpers/ports.js";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { failureLine } from "../../scripts/schema/cli.js";
import { runGenerate } from "../../scripts/schema/run-generate.js";
import {
  mirrorFile,
  readRelease,
  removeTempDirs,
  ROOT,
  runScript,
  serve,
  snapshot,
  tempDir,
  tempProject,
  type Route,
  type Served,
} from "../helpers/schema.js";

const routes = new Map<string, Route>();
let server: Served;
let work: string;
let out: string;

beforeAll(async () => {
  const full = await readRelease("1.181.0");
  routes.set("/error-page", {
    type: "text/html",
    body: "<!DOCTYPE html>\n<html><body><h1>Sign in</h1></body></html>\n",
  });
  routes.set("/silent", () => undefined); // accepts the request, never answers
  let dropped = false;
  routes.set("/drops-once", (res) => {
    // The first time: the connection closed with no answer, as a stale kept-alive one is.
    if (!dropped) {
      dropped = true;
      res.socket?.destroy();
      return;
    }
    res.writeHead(200, { "content-type": "application/yaml" }).end(full);
  });
  routes.set("/stalls", (res) => {
    res.writeHead(200, { "content-type": "application/yaml" });
    res.write(full.slice(0, 10_000)); // then nothing more
  });
  server = await serve(routes);
  work = await tempDir();
  await writeFile(
    path.join(work, "openapi-3.1.yml"),
    full.replace(/^openapi: 3\.0\.1$/m, "openapi: 3.1.0"),
  );
  await writeFile(
    path.join(work, "swagger.yml"),
    'swagger: "2.0"\ninfo: { title: x, version: "1" }\npaths: {}\n',
  );
  await writeFile(path.join(work, "truncated.yml"), full.slice(0, Math.floor(full.length / 2)));
  // A previous generated/ that every failed run must leave exactly as it was.
  out = path.join(work, "generated");
  await runGenerate({ root: await tempProject("1.181.0"), argv: ["--out", out], env: {} });
});

afterAll(async () => {
  await server.close();
  await removeTempDirs();
});

/**
 * Runs `generate` on bad input, in this process (the script's own process, exit code and
 * stderr, are tried once below): the line it would print, with generated/ untouched.
 */
async function failsWith(args: string[], env: Record<string, string> = {}): Promise<string> {
  const before = await snapshot(out);
  const failure = await runGenerate({
    root: ROOT,
    argv: [...args, "--out", out],
    env: { ...process.env, ...env },
  }).then(
    () => expect.fail("generate succeeded"),
    (err: unknown) => err,
  );
  expect(await snapshot(out)).toEqual(before);
  return failureLine("generate", failure);
}

test("the script itself: exit 1, nothing on stdout, the one line on stderr", async () => {
  const file = path.join(work, "openapi-3.1.yml");
  const result = await runScript("generate.ts", ["--source", file, "--out", out]);
  expect(result).toMatchObject({ code: 1, stdout: "" });
  expect(result.stderr).toBe(`${await failsWith(["--source", file])}\n`);
});

test("a connection closed with no answer is tried once more, on a new one", async () => {
  const before = server.requests.length;
  const root = await tempProject("1.181.0");
  const argv = ["--source", `${server.url}/drops-once`, "--out", path.join(work, "retried")];
  expect(await runGenerate({ root, argv, env: {} })).toMatch(/^generated release 1\.181\.0: /);
  expect(server.requests.slice(before)).toEqual(["/drops-once", "/drops-once"]);
});

describe("bad input leaves generated/ as it was and says what is wrong in one line", () => {
  test("an OpenAPI 3.1 document", async () => {
    const file = path.join(work, "openapi-3.1.yml");
    expect(await failsWith(["--source", file])).toBe(
      `generate: ${file} is OpenAPI 3.1.0; only 3.0.x is supported`,
    );
  });

  test("a Swagger 2.0 document", async () => {
    expect(await failsWith(["--source", path.join(work, "swagger.yml")])).toMatch(
      /swagger\.yml is not an OpenAPI 3\.0 document \(no 'openapi' field; truncated\?\)$/,
    );
  });

  test("a truncated file", async () => {
    expect(await failsWith(["--source", path.join(work, "truncated.yml")])).toMatch(
      /truncated\.yml (has a \$ref to a missing #\/components\/schemas\/\w+|is not valid YAML or JSON) \(truncated\?\)/,
    );
  });

  test("an HTML page served instead of the YAML", async () => {
    expect(await failsWith(["--source", `${server.url}/error-page`])).toBe(
      `generate: ${server.url}/error-page is an HTML/XML page, not an OpenAPI document`,
    );
  });

  test("another release than the pinned one (sha256 mismatch names both)", async () => {
    expect(await failsWith([], { SEQERA_SCHEMA_SOURCE: mirrorFile("1.140.0") })).toMatch(
      /sha256 mismatch for .*seqera-api-1\.140\.0\.yml: pinned release 1\.187\.0 \(13316c9fe5ff…\), found release 1\.140\.0 \(483bf2d6aeb7…\); run 'npm run schema:update' to move the pin$/,
    );
  });

  test("an unreachable URL", async () => {
    const url = `http://127.0.0.1:${await freePort()}/seqera-api-latest.yml`;
    expect(await failsWith(["--source", url])).toBe(
      `generate: ${url} is unreachable: ECONNREFUSED`,
    );
  });

  test("an HTTP error status", async () => {
    expect(await failsWith(["--source", `${server.url}/missing.yml`])).toBe(
      `generate: ${server.url}/missing.yml answered HTTP 404`,
    );
  });

  test("a missing mirror file", async () => {
    const file = path.resolve("../shared/schemas/seqera-api-0.0.0.yml");
    expect(await failsWith(["--source", "../shared/schemas/seqera-api-0.0.0.yml"])).toBe(
      `generate: ${file} does not exist`,
    );
  });

  test("a server that never answers, under SEQERA_SCHEMA_TIMEOUT_MS", async () => {
    expect(
      await failsWith(["--source", `${server.url}/silent`], { SEQERA_SCHEMA_TIMEOUT_MS: "300" }),
    ).toBe(`generate: ${server.url}/silent is unreachable: no complete answer in 300 ms`);
  });

  test("a server that stalls in the middle of the file", async () => {
    expect(
      await failsWith(["--source", `${server.url}/stalls`], { SEQERA_SCHEMA_TIMEOUT_MS: "300" }),
    ).toBe(`generate: ${server.url}/stalls is unreachable: no complete answer in 300 ms`);
  });
});

describe("the pin's places, in order: the mirror, the permanent URL, the latest URL", () => {
  const PINNED = "c46cdb7bc991…";
  // Loopback servers stand in for raw.githubusercontent.com and cloud.seqera.io.
  const permanentPath =
    "/seqeralabs/docs/acb2c55/platform-api-docs/scripts/specs/seqera-api-1.181.0.yaml";
  const latestPath = "/openapi/seqera-api-latest.yml";
  let permanent: Served;
  let latest: Served;
  const permanentRoutes = new Map<string, Route>();
  const latestRoutes = new Map<string, Route>();

  beforeAll(async () => {
    permanent = await serve(permanentRoutes);
    latest = await serve(latestRoutes);
  });
  afterAll(async () => {
    await permanent.close();
    await latest.close();
  });

  /** A project without the mirror, pinned to 1.181.0, whose URLs are the loopback servers. */
  const withoutMirror = (places: { permanent?: string } = {}) =>
    tempProject("1.181.0", {
      mirror: "no-mirror/seqera-api-{version}.yml",
      permanent: permanent.url + permanentPath,
      latest: latest.url + latestPath,
      ...places,
    });
  const served = async (version: string): Promise<Route> => ({ body: await readRelease(version) });
  const asked = () => [...permanent.requests.splice(0), ...latest.requests.splice(0)];

  test("the mirror first: no download", async () => {
    permanentRoutes.set(permanentPath, await served("1.181.0"));
    const root = await tempProject("1.181.0", {
      permanent: permanent.url + permanentPath,
      latest: latest.url + latestPath,
    });
    expect(await runGenerate({ root, env: {} })).toMatch(/^generated release 1\.181\.0: /);
    expect(asked()).toEqual([]);
  });

  test("no mirror: the permanent URL, its sha256 verified; the latest URL not asked", async () => {
    permanentRoutes.set(permanentPath, await served("1.181.0"));
    latestRoutes.set(latestPath, await served("1.187.0"));
    const root = await withoutMirror();
    expect(await runGenerate({ root, env: {} })).toMatch(/^generated release 1\.181\.0: /);
    expect(asked()).toEqual([permanentPath]);
  });

  test("a permanent URL serving other bytes is passed over; the latest URL while it serves the pin", async () => {
    permanentRoutes.set(permanentPath, await served("1.140.0"));
    latestRoutes.set(latestPath, await served("1.181.0"));
    const root = await withoutMirror();
    expect(await runGenerate({ root, env: {} })).toMatch(/^generated release 1\.181\.0: /);
    expect(asked()).toEqual([permanentPath, latestPath]);
  });

  test("a mirror file with other bytes is passed over for the download", async () => {
    permanentRoutes.set(permanentPath, await served("1.181.0"));
    const root = await withoutMirror();
    await mkdir(path.join(root, "no-mirror"));
    await writeFile(
      path.join(root, "no-mirror", "seqera-api-1.181.0.yml"),
      await readRelease("1.187.0"),
    );
    expect(await runGenerate({ root, env: {} })).toMatch(/^generated release 1\.181\.0: /);
    expect(asked()).toEqual([permanentPath]);
  });

  test("offline, with the latest URL moved on: one line naming SEQERA_SCHEMA_SOURCE and the URL to download", async () => {
    latestRoutes.set(latestPath, await served("1.187.0"));
    const gone = `http://127.0.0.1:${await freePort()}${permanentPath}`;
    const root = await withoutMirror({ permanent: gone });
    const message = await runGenerate({ root, argv: ["--out", out], env: {} }).catch(
      (err: Error) => err.message,
    );
    expect(message).toBe(
      `could not obtain schema release 1.181.0 (sha256 ${PINNED}): ` +
        `${path.join(root, "no-mirror/seqera-api-1.181.0.yml")} does not exist; ` +
        `${gone} is unreachable: ECONNREFUSED; ` +
        `${latest.url}${latestPath} serves release 1.187.0 (sha256 13316c9fe5ff…). ` +
        `Download ${gone} and set SEQERA_SCHEMA_SOURCE to the downloaded file (or to a URL that serves it)`,
    );
    asked();
  });

  test("following that message: SEQERA_SCHEMA_SOURCE names the downloaded file, nothing is asked", async () => {
    const root = await withoutMirror({ permanent: `http://127.0.0.1:${await freePort()}/gone` });
    const downloaded = path.join(work, "downloaded-1.181.0.yaml");
    await writeFile(downloaded, await readRelease("1.181.0"));
    expect(await runGenerate({ root, env: { SEQERA_SCHEMA_SOURCE: downloaded } })).toMatch(
      /^generated release 1\.181\.0: /,
    );
    expect(asked()).toEqual([]);
  });

  test("a pin without a permanent URL: the message asks for SEQERA_SCHEMA_SOURCE", async () => {
    latestRoutes.set(latestPath, {
      body: "<!DOCTYPE html><html>Maintenance</html>",
      type: "text/html",
    });
    const root = await withoutMirror({ permanent: undefined });
    await expect(runGenerate({ root, env: {} })).rejects.toThrow(
      new RegExp(
        `${latest.url}${latestPath} serves no schema release \\(sha256 [0-9a-f]{12}…\\)\\. ` +
          "Set SEQERA_SCHEMA_SOURCE to a file or URL that serves release 1\\.181\\.0$",
      ),
    );
    expect(asked()).toEqual([latestPath]);
  });
});
