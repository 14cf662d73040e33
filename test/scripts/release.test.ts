import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { lineProblems, runRelease, type CheckedLine } from "../../scripts/schema/release.js";
import { removeTempDirs, tempProject } from "../helpers/schema.js";

/**
 * The release dry run's own checks, without packing (`.ci/run` runs the whole dry run, which
 * packs every line): the line read back from its tarball, and the workflow's provenance.
 */
afterAll(removeTempDirs);

const line: CheckedLine = {
  release: "1.140.0",
  version: "1.140.3",
  distTag: "api-1.140",
  lineTag: "api-1.140",
  tarball: "/tmp/seqera-api-client-1.140.3.tgz",
  bytes: 344_000,
  notes: true,
  publishTag: "api-1.140",
  readmeInstall: "npm install --save-exact seqera-api-client@1.140.3",
  changelogFirst: "1.140.3",
};

test("a packed line is refused when its dist-tag, README install line or CHANGELOG is another line's", () => {
  expect(lineProblems(line)).toEqual([]);
  expect(
    lineProblems({
      ...line,
      publishTag: "(none)",
      readmeInstall: "npm install --save-exact seqera-api-client@1.187.0",
      changelogFirst: "1.187.0",
    }),
  ).toEqual([
    "1.140.3: publishConfig.tag is (none), not api-1.140",
    '1.140.3: README installs "npm install --save-exact seqera-api-client@1.187.0"',
    "1.140.3: CHANGELOG starts at ## 1.187.0",
  ]);
});

test("the workflow must publish with provenance; only --dry-run exists", async () => {
  const root = await tempProject("1.181.0");
  await writeFile(path.join(root, "package.json"), JSON.stringify({ version: "1.181.3" }));
  await mkdir(path.join(root, ".github", "workflows"), { recursive: true });
  await writeFile(
    path.join(root, ".github", "workflows", "release.yml"),
    "jobs:\n  publish:\n    steps:\n      - name: Publish\n        run: npm publish x.tgz\n",
  );
  await expect(runRelease({ root, argv: [], log: () => undefined })).rejects.toThrow(
    "only --dry-run: a release is published by .github/workflows/release.yml from a pushed tag",
  );
  await expect(runRelease({ root, argv: ["--dry-run"], log: () => undefined })).rejects.toThrow(
    "release dry run: release.yml: the publish job lacks permissions id-token: write; " +
      "release.yml: the Publish step does not run npm publish --provenance",
  );
});
