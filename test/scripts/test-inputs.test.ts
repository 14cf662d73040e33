import { execFile } from "node:child_process";
import { cp, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  obtainTestInputs,
  readLock,
  recordedDir,
  schemasDir,
  type RecordedLock,
} from "../../scripts/schema/inputs.js";
import { freePort } from "../helpers/ports.js";
import { runGenerate } from "../../scripts/schema/run-generate.js";
import {
  MIRROR,
  readRelease,
  RECORDED,
  removeTempDirs,
  ROOT,
  sha256Of,
  tempDir,
  tempProject,
} from "../helpers/schema.js";

/**
 * The files the tests read but the repository does not hold (schema releases, recorded answers)
 * are obtained before the tests run, each checked by its sha256: here in a throw-away project
 * whose permanent URLs are a refused loopback port, so nothing leaves the machine.
 */
let NOWHERE: string;
let lock: RecordedLock;
let project: string;

beforeAll(async () => {
  NOWHERE = `http://127.0.0.1:${await freePort()}`;
  const real = await readLock(ROOT);
  lock = { ...real, url: `${NOWHERE}/{repo}/{commit}/{file}`, fixtures: real.fixtures.slice(0, 2) };
  project = await tempProject("1.85.0", { mirror: "/nonexistent/seqera-api-{version}.yml" });
  const release = await readRelease("1.85.0");
  await writeFile(
    path.join(project, "schema", "published.yaml"),
    `1.85.0:\n  sha256: ${sha256Of(release)}\n  url: ${NOWHERE}/seqera-api-1.85.0.yml\n`,
  );
  await mkdir(path.join(project, "test", "fixtures"), { recursive: true });
  await writeFile(
    path.join(project, "test", "fixtures", "real-responses.lock.json"),
    JSON.stringify(lock),
  );
});
afterAll(removeTempDirs);

/** A directory laid out as ../shared/real-responses with the lock's bodies, `edit`ed. */
async function fixturesSource(edit = (text: string) => text): Promise<string> {
  const dir = await tempDir("fixtures-source-");
  for (const { file } of lock.fixtures) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), edit(await readFile(path.join(RECORDED, file), "utf8")));
  }
  return dir;
}

const failure = (env: NodeJS.ProcessEnv): Promise<string> =>
  obtainTestInputs(project, env).then(
    () => "obtained",
    (err: Error) => err.message,
  );

describe("obtaining the tests' inputs", () => {
  test("from SEQERA_FIXTURES_SOURCE and a SEQERA_SCHEMA_SOURCE directory, checked, then cached", async () => {
    const env = { SEQERA_FIXTURES_SOURCE: await fixturesSource(), SEQERA_SCHEMA_SOURCE: MIRROR };
    expect(await obtainTestInputs(project, env)).toBe(3);
    for (const { file, sha256 } of lock.fixtures) {
      expect(sha256Of(await readFile(path.join(recordedDir(project), file), "utf8"))).toBe(sha256);
    }
    const manifest = JSON.parse(
      await readFile(path.join(recordedDir(project), "manifest.json"), "utf8"),
    );
    expect(manifest.fixtures).toEqual(lock.fixtures);
    expect(await readFile(path.join(schemasDir(project), "seqera-api-1.85.0.yml"), "utf8")).toBe(
      await readRelease("1.85.0"),
    );
    // Cached: nothing is obtained again, even with no source left.
    expect(await obtainTestInputs(project, {})).toBe(0);
  });

  test("offline with neither variable nor ../shared: one line naming SEQERA_FIXTURES_SOURCE and the URL", async () => {
    const cached = path.join(recordedDir(project), lock.fixtures[0]!.file);
    await writeFile(cached, "{}"); // a cache that was edited is obtained again
    const { file, sha256, source } = lock.fixtures[0]!;
    const url = `${NOWHERE}/${lock.repo}/${lock.commit}/${source.file}`;
    const message = await failure({ SEQERA_SCHEMA_SOURCE: MIRROR });
    expect(message).toBe(
      `could not obtain the recorded answer ${file} (sha256 ${sha256.slice(0, 12)}…): ` +
        `${path.resolve(project, "../shared/real-responses", file)} does not exist; ` +
        `${url} is unreachable: ECONNREFUSED. Set SEQERA_FIXTURES_SOURCE to a directory laid out ` +
        `as ../shared/real-responses, or let this machine reach ${url}`,
    );
  });

  test("a body with other bytes is refused by its sha256", async () => {
    const source = await fixturesSource((text) => text.replace("{", "{ "));
    const { file } = lock.fixtures[0]!;
    expect(await failure({ SEQERA_FIXTURES_SOURCE: source })).toContain(
      `${path.join(source, file)} holds sha256 `,
    );
  });

  test("a schema release no place holds: one line naming SEQERA_SCHEMA_SOURCE and its URL", async () => {
    const fresh = await tempProject("1.85.0", { mirror: "/nonexistent/seqera-api-{version}.yml" });
    await cp(
      path.join(project, "schema", "published.yaml"),
      path.join(fresh, "schema", "published.yaml"),
    );
    const message = await obtainTestInputs(fresh, {}).catch((err: Error) => err.message);
    expect(message).toMatch(/^could not obtain schema release 1\.85\.0 \(sha256 305f8616407b…\): /);
    expect(message).toMatch(
      /Set SEQERA_SCHEMA_SOURCE to a directory laid out as \.\.\/shared\/schemas \(seqera-api-1\.85\.0\.yml: download http:\/\/127\.0\.0\.1:\d+\/seqera-api-1\.85\.0\.yml\)$/,
    );
    expect(message).not.toContain("\n");
  });
});

test("generate reads its release from a SEQERA_SCHEMA_SOURCE directory laid out as the mirror", async () => {
  const out = path.join(await tempDir(), "generated");
  const root = await tempProject("1.85.0", { mirror: "/nonexistent/seqera-api-{version}.yml" });
  expect(
    await runGenerate({ root, argv: ["--out", out], env: { SEQERA_SCHEMA_SOURCE: MIRROR } }),
  ).toMatch(/^generated release 1\.85\.0: /);
});

test("npm test before npm ci: one line saying to run npm ci", async () => {
  const bare = await tempDir("before-ci-");
  await cp(
    path.join(ROOT, "scripts", "installed.mjs"),
    path.join(bare, "scripts", "installed.mjs"),
  );
  const ran = await promisify(execFile)(process.execPath, ["scripts/installed.mjs"], {
    cwd: bare,
  }).catch((err: { code: number; stderr: string }) => err);
  expect(ran).toMatchObject({
    code: 1,
    stderr:
      "npm test: node_modules/.bin/tsx and generated/schema.ts missing: run 'npm ci' first " +
      "(it installs, generates the types and builds)\n",
  });
});
