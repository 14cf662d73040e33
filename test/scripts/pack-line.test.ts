import { readFile, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, afterEach, expect, test } from "vitest";
import { lineOf, packLine, releaseNotes, releaseOfTag } from "../../scripts/schema/line.js";
import { readPin } from "../../scripts/schema/pin.js";
import { mirroredReleases, run } from "../../scripts/schema/releases.js";
import { compareVersions, lineVersion } from "../../scripts/schema/versions.js";
import {
  MIRROR,
  readRelease,
  removeTempDirs,
  ROOT,
  runScript,
  serve,
  tempDir,
  tempProject,
  type Served,
} from "../helpers/schema.js";
import { readWorkflow, stepNamed } from "../package/workflow.js";

const pkg = JSON.parse(await readFile(path.join(ROOT, "package.json"), "utf8"));
const changelog = await readFile(path.join(ROOT, "CHANGELOG.md"), "utf8");
let server: Served | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(removeTempDirs);

test("a line's version is the release's major.minor and the release counter; its dist-tags", () => {
  expect(lineOf("1.140.0", "1.181.3", "1.181.0")).toEqual({
    release: "1.140.0",
    version: "1.140.3",
    distTag: "api-1.140",
    lineTag: "api-1.140",
  });
  expect(lineOf("1.181.0", "1.181.3", "1.181.0")).toMatchObject({
    version: "1.181.3",
    distTag: "latest",
    lineTag: "api-1.181",
  });
  // The counter is kept when the pin moves: the new line starts at the next release's patch.
  expect(lineVersion("1.187.0", "1.181.3")).toBe("1.187.3");
  expect(() => lineVersion("1.187.0", "1.181")).toThrow(
    "package.json's version '1.181' is not major.minor.patch",
  );
});

test("a git tag names its line and must carry the commit's release counter", () => {
  expect(releaseOfTag("v1.140.3", "1.181.3")).toBe("1.140.0");
  expect(() => releaseOfTag("v1.140.2", "1.181.3")).toThrow(
    "git tag v1.140.2 names patch 2, but this commit's release counter (the patch of " +
      "package.json's version 1.181.3) is 3: tag the commit that sets it",
  );
  expect(() => releaseOfTag("1.140.3", "1.181.3")).toThrow(
    "git tag '1.140.3' is not v<major>.<minor>.<patch>",
  );
});

test("release notes are the body of the version's ## section", () => {
  const text = "# Changelog\n\nintro\n\n## 1.181.1\n\nFixed a.\n\n## 1.181.0\n\nFirst.\n";
  expect(releaseNotes(text, "1.181.1")).toBe("Fixed a.");
  expect(releaseNotes(text, "1.181.0")).toBe("First.");
  expect(releaseNotes(text, "1.181.2")).toBeUndefined();
});

test("CHANGELOG.md: one ## <version> section per version, newest first, one for every line up to the pin", async () => {
  const headings = [...changelog.matchAll(/^## (.*)$/gm)].map((m) => m[1]!);
  expect(headings.filter((h) => !/^\d+\.\d+\.\d+$/.test(h))).toEqual([]);
  expect(new Set(headings).size).toBe(headings.length);
  const order = [...headings].sort((a, b) => compareVersions(b, a));
  expect(headings).toEqual(order);
  const pin = await readPin(ROOT);
  const lines = (await mirroredReleases(MIRROR))
    .filter((release) => compareVersions(release, pin.version) <= 0)
    .map((release) => lineVersion(release, pkg.version));
  expect(lines.filter((version) => releaseNotes(changelog, version) === undefined)).toEqual([]);
});

test("package.json: Apache-2.0 with its text and copyright line in LICENSE", async () => {
  expect(pkg.license).toBe("Apache-2.0");
  const license = await readFile(path.join(ROOT, "LICENSE"), "utf8");
  expect(license).toMatch(/^\s+Apache License\n\s+Version 2\.0, January 2004\n/);
  expect(license).toContain("END OF TERMS AND CONDITIONS");
  expect(license).toMatch(/^ {3}Copyright \d{4} \S.*$/m);
  expect(license).not.toContain("[yyyy]");
  expect(pkg.files).toEqual(expect.arrayContaining(["LICENSE", "CHANGELOG.md"]));
});

test("packed, a line's files are its own: dist-tag, repository from one setting, README install line, CHANGELOG", async () => {
  const dir = await tempDir("pack-manifest-");
  const readme =
    "npm install ../seqera-api-client-1.187.0.tgz\nnpm i seqera-api-client@1.187.0\n" +
    "[CLI](docs/cli.md#exit-codes), [site](https://x.org/a.md), [up](#top), [mail](mailto:a@b)\n";
  const changelog =
    "# Changelog\n\nintro\n\n## 1.187.0\n\nNew.\n\n## 1.140.0\n\nOld ([docs](docs/emulator.md)).\n\n## 1.102.0\n\nOlder.\n";
  const files = { "README.md": readme, "CHANGELOG.md": changelog };
  await writeFile(
    path.join(dir, "package.json"),
    JSON.stringify({ version: "1.140.0", scripts: { prepare: "x" } }),
  );
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  const script = path.join(ROOT, "scripts", "pack-manifest.mjs");
  const strip = (env: Record<string, string>) => run(process.execPath, [script, "strip"], dir, env);
  const packed = async () => {
    const read = (name: string) => readFile(path.join(dir, name), "utf8");
    const seen = {
      manifest: JSON.parse(await read("package.json")),
      readme: await read("README.md"),
      changelog: await read("CHANGELOG.md"),
    };
    await run(process.execPath, [script, "restore"], dir);
    return seen;
  };
  const none = { GITHUB_REPOSITORY: "", SEQERA_REPOSITORY: "", SEQERA_DIST_TAG: "" };
  await strip({
    ...none,
    GITHUB_REPOSITORY: "acme/seqera-api-client",
    SEQERA_DIST_TAG: "api-1.140",
  });
  expect(await packed()).toEqual({
    manifest: {
      version: "1.140.0",
      scripts: {},
      publishConfig: { tag: "api-1.140" },
      repository: { type: "git", url: "git+https://github.com/acme/seqera-api-client.git" },
      homepage: "https://github.com/acme/seqera-api-client#readme",
      bugs: { url: "https://github.com/acme/seqera-api-client/issues" },
    },
    // The docs the tarball does not hold: the repository's, at the line's own tag.
    readme:
      "npm install ../seqera-api-client-1.140.0.tgz\nnpm i seqera-api-client@1.140.0\n" +
      "[CLI](https://github.com/acme/seqera-api-client/blob/v1.140.0/docs/cli.md#exit-codes), [site](https://x.org/a.md), [up](#top), [mail](mailto:a@b)\n",
    changelog:
      "# Changelog\n\nintro\n\n## 1.140.0\n\nOld ([docs](https://github.com/acme/seqera-api-client/blob/v1.140.0/docs/emulator.md)).\n\n## 1.102.0\n\nOlder.\n",
  });
  // Restored as they were.
  for (const [name, text] of Object.entries(files)) {
    expect(await readFile(path.join(dir, name), "utf8")).toBe(text);
  }
  await strip({
    ...none,
    GITHUB_REPOSITORY: "acme/seqera-api-client",
    SEQERA_REPOSITORY: "fork/x",
  });
  expect((await packed()).manifest.homepage).toBe("https://github.com/fork/x#readme");
  await strip(none);
  const plain = await packed();
  expect(plain.manifest).toEqual({ version: "1.140.0", scripts: {} });
  // No repository to link to: the links are left as they are.
  expect(plain.readme).toContain("[CLI](docs/cli.md#exit-codes)");
  // The source package.json names no repository: nothing to keep in step by hand.
  expect(pkg).not.toHaveProperty("repository");
  expect(JSON.stringify(pkg)).not.toContain("REPLACE_WITH");
});

test("the workflows: CI on pushes and pull requests; a release runs it, then packs and publishes with provenance", async () => {
  const ci = await readWorkflow(ROOT, "ci.yml");
  expect(ci.on).toEqual({ push: { branches: ["main"] }, pull_request: null, workflow_call: null });
  expect(ci.jobs.ci!.steps!.map((s) => s.run).at(-1)).toBe(".ci/run");
  expect(ci.jobs.ci!["timeout-minutes"]).toBe(90);
  const workflow = await readWorkflow(ROOT);
  expect(workflow.on).toEqual({ push: { tags: ["v*.*.*"] } });
  expect(workflow.permissions).toEqual({ contents: "read" });
  const { ci: first, publish } = workflow.jobs;
  expect(first).toEqual({ uses: "./.github/workflows/ci.yml" });
  expect(publish!.needs).toBe("ci");
  expect(publish!.permissions).toEqual({ contents: "read", "id-token": "write" });
  expect(publish!.steps!.map((s) => s.name ?? s.uses ?? s.run)).toEqual([
    expect.stringMatching(/^actions\/checkout@[0-9a-f]{40}$/),
    expect.stringMatching(/^actions\/setup-node@[0-9a-f]{40}$/),
    "npm ci",
    "Pack the line",
    "Publish",
    "The line's own dist-tag",
  ]);
  // Every action pinned by full commit (a tag can be moved), in both workflows.
  for (const job of [...Object.values(ci.jobs), publish!]) {
    for (const { uses } of job.steps ?? []) {
      if (uses) expect(uses).toMatch(/^[\w-]+\/[\w-]+@[0-9a-f]{40}$/);
    }
  }
  expect(stepNamed(workflow, "publish", "Pack the line").run).toContain(
    'npm run --silent pack:line -- --git-tag "$GITHUB_REF_NAME"',
  );
  expect(stepNamed(workflow, "publish", "Publish").run).toBe(
    'npm publish "$TARBALL" --provenance --tag "$DIST_TAG"',
  );
  const lineTag = stepNamed(workflow, "publish", "The line's own dist-tag");
  expect(lineTag.if).toBe("steps.pack.outputs.distTag != steps.pack.outputs.lineTag");
  expect(lineTag.run).toBe('npm dist-tag add "seqera-api-client@$VERSION" "$LINE_TAG"');
});

/** A project pinned to 1.181.0 at release counter 3, with one CHANGELOG section. */
async function project(places?: Parameters<typeof tempProject>[1]): Promise<string> {
  const root = await tempProject("1.181.0", places);
  await writeFile(path.join(root, "package.json"), JSON.stringify({ version: "1.181.3" }));
  await writeFile(path.join(root, "CHANGELOG.md"), "# Changelog\n\n## 1.181.3\n\nFixed.\n");
  return root;
}

test("pack:line refuses, before packing anything, a tag without release notes", async () => {
  const root = await project();
  const out = await tempDir();
  await expect(
    packLine({ root, argv: ["--git-tag", "v1.140.3", "--out", out], log: () => undefined }),
  ).rejects.toThrow(
    "CHANGELOG.md has no section '## 1.140.3': write its release notes before publishing",
  );
  expect(await readdir(out)).toEqual([]);
});

test("pack:line reads a release where the pin's sources say, and refuses a file of another release", async () => {
  server = await serve(
    new Map([["/seqera-api-1.140.0.yml", { body: await readRelease("1.102.0") }]]),
  );
  const root = await project({ mirror: `${server.url}/seqera-api-{version}.yml` });
  // No SEQERA_SCHEMA_SOURCE (a fresh clone's CI sets it): the pin's sources are what is tried.
  await expect(
    packLine({ root, argv: ["1.140.0"], env: {}, log: () => undefined }),
  ).rejects.toThrow(
    `${server.url}/seqera-api-1.140.0.yml is release 1.102.0, not 1.140.0: give release ` +
      `1.140.0's file or URL with --source or SEQERA_SCHEMA_SOURCE`,
  );
});

test("pack:line packs the pinned release's line only from a tree generated from the pin", async () => {
  const root = await project();
  await expect(packLine({ root, argv: ["1.181.0"], log: () => undefined })).rejects.toThrow(
    "generated/ is not from the pinned release: run 'npm run generate'",
  );
});

test("pack:line's command line: one line on stderr and exit 1", async () => {
  const ran = await runScript("pack-line.ts", ["1.140"]);
  expect(ran.code).toBe(1);
  expect(ran.stderr).toBe(
    "pack:line: name one release (npm run pack:line -- 1.140.0) or one git tag (--git-tag v1.140.3)\n",
  );
  const tagged = await runScript("pack-line.ts", ["--git-tag", "v1.140.999"]);
  expect(tagged.stderr).toContain(
    "pack:line: git tag v1.140.999 names patch 999, but this commit's release counter",
  );
});
