import { freePort } from "../helpers/ports.js";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runGenerate } from "../../scripts/schema/run-generate.js";
import {
  readRelease,
  removeTempDirs,
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

/** Runs `generate` on bad input: exit 1, one line on stderr, generated/ untouched. */
async function failsWith(args: string[], env: Record<string, string> = {}): Promise<string> {
  const before = await snapshot(out);
  const result = await runScript("generate.ts", [...args, "--out", out], env);
  expect(result.code).toBe(1);
  expect(result.stdout).toBe("");
  expect(result.stderr).toMatch(/^generate: [^\n]+\n$/);
  expect(await snapshot(out)).toEqual(before);
  return result.stderr.trim();
}

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
    expect(
      await failsWith([], { SEQERA_SCHEMA_SOURCE: "../shared/schemas/seqera-api-1.140.0.yml" }),
    ).toMatch(
      /sha256 mismatch for .*seqera-api-1\.140\.0\.yml: pinned release 1\.181\.0 \(c46cdb7bc991…\), found release 1\.140\.0 \(483bf2d6aeb7…\); run 'npm run schema:update' to move the pin$/,
    );
  });

  test("an unreachable URL", async () => {
    const url = `http://127.0.0.1:${await freePort()}/seqera-api-latest.yml`;
    expect(await failsWith(["--source", url])).toBe(
      `generate: could not obtain the schema: ${url} is unreachable: ECONNREFUSED`,
    );
  });

  test("an HTTP error status", async () => {
    expect(await failsWith(["--source", `${server.url}/missing.yml`])).toBe(
      `generate: could not obtain the schema: ${server.url}/missing.yml answered HTTP 404`,
    );
  });

  test("a missing mirror file", async () => {
    const file = path.resolve("../shared/schemas/seqera-api-0.0.0.yml");
    expect(await failsWith(["--source", "../shared/schemas/seqera-api-0.0.0.yml"])).toBe(
      `generate: could not obtain the schema: ${file} does not exist`,
    );
  });

  test("a server that never answers, under SEQERA_SCHEMA_TIMEOUT_MS", async () => {
    expect(
      await failsWith(["--source", `${server.url}/silent`], { SEQERA_SCHEMA_TIMEOUT_MS: "300" }),
    ).toBe(
      `generate: could not obtain the schema: ${server.url}/silent is unreachable: no complete answer in 300 ms`,
    );
  });

  test("a server that stalls in the middle of the file", async () => {
    expect(
      await failsWith(["--source", `${server.url}/stalls`], { SEQERA_SCHEMA_TIMEOUT_MS: "300" }),
    ).toBe(
      `generate: could not obtain the schema: ${server.url}/stalls is unreachable: no complete answer in 300 ms`,
    );
  });
});

test("the pin's sources are tried in order: a missing mirror falls through to the URL", async () => {
  const url = `http://127.0.0.1:${await freePort()}/seqera-api-latest.yml`;
  const root = await tempProject("1.181.0", ["mirror/seqera-api-{version}.yml", url]);
  await expect(runGenerate({ root, argv: ["--out", out], env: {} })).rejects.toThrow(
    `could not obtain the schema: ${path.join(root, "mirror/seqera-api-1.181.0.yml")} does not exist; ` +
      `${url} is unreachable: ECONNREFUSED`,
  );
});
