/**
 * `npm pack`/`npm publish` lifecycle: the packed files say which line they are.
 *
 * - package.json leaves out the `prepare` script (which makes `npm ci` in this repository
 *   generate and build): in a tarball npm lists it as an install script and warns on every
 *   install. It gets `publishConfig.tag`, the line's dist-tag (SEQERA_DIST_TAG, which
 *   `npm run pack:line` sets), so that a hand `npm publish` of an older line cannot move
 *   `latest`; and `repository`, `homepage` and `bugs`, all three from one setting, the GitHub
 *   repository (owner/name) it is published from: SEQERA_REPOSITORY, else GITHUB_REPOSITORY (set
 *   in every GitHub Actions job, so the release workflow's tarball names the repository npm
 *   provenance checks it against); neither, none of the three.
 * - README.md's install lines name the packed version, not the newest line's.
 * - README.md's and CHANGELOG.md's relative links (docs/cli.md, ARCHITECTURE.md), to files the
 *   tarball does not hold, point at the repository's files at the version's tag
 *   (https://github.com/<repository>/blob/v<version>/docs/cli.md), from the same setting; without
 *   it they are left as they are.
 * - CHANGELOG.md keeps the sections of the packed version and older ones: an older line's starts
 *   at its own version, not at the newest line's.
 *
 * `strip` (prepack) keeps each changed file as it was beside it; `restore` (postpack) puts them
 * back.
 */
import { copyFileSync, existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";

const FILES = ["package.json", "README.md", "CHANGELOG.md"];
const kept = (file) => `${file}.unpacked`;

/** -1, 0 or 1 as version a is older than, the same as or newer than b (x.y.z). */
const compare = (a, b) => {
  const [x, y] = [a, b].map((v) => v.split(".").map(Number));
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return Math.sign(x[i] - y[i]);
  return 0;
};

/** The GitHub repository (owner/name) the package is published from, if set. */
const repository = process.env.SEQERA_REPOSITORY || process.env.GITHUB_REPOSITORY;

/** A markdown link's relative target made the repository's file at the version's tag. */
function absoluteLinks(text, pkg) {
  if (!repository) return text;
  const base = `https://github.com/${repository}/blob/v${pkg.version}/`;
  return text.replace(
    /\]\((?![a-z][a-z0-9+.-]*:|#)([^)\s]+)\)/gi,
    (_, target) => `](${base}${target})`,
  );
}

function packed(file, text, pkg) {
  if (file === "README.md") {
    return absoluteLinks(
      text.replace(
        /\bseqera-api-client([@-])\d+\.\d+\.\d+\b/g,
        `seqera-api-client$1${pkg.version}`,
      ),
      pkg,
    );
  }
  if (file === "CHANGELOG.md") {
    const [intro, ...sections] = text.split(/^(?=## )/m);
    const older = sections.filter((section) => {
      const version = /^## (\d+\.\d+\.\d+)\s*$/m.exec(section)?.[1];
      return !version || compare(version, pkg.version) <= 0;
    });
    return absoluteLinks([intro, ...older].join(""), pkg);
  }
  const manifest = JSON.parse(text);
  delete manifest.scripts.prepare;
  const tag = process.env.SEQERA_DIST_TAG;
  if (tag) manifest.publishConfig = { ...manifest.publishConfig, tag };
  if (repository) {
    const home = `https://github.com/${repository}`;
    Object.assign(manifest, {
      repository: { type: "git", url: `git+${home}.git` },
      homepage: `${home}#readme`,
      bugs: { url: `${home}/issues` },
    });
  }
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

const step = process.argv[2];
if (step === "strip") {
  const pkg = JSON.parse(readFileSync("package.json", "utf8"));
  for (const file of FILES) {
    const text = readFileSync(file, "utf8");
    const now = packed(file, text, pkg);
    if (now === text) continue;
    copyFileSync(file, kept(file));
    // Replaced in one step: tests running beside `npm pack` read these files.
    writeFileSync(`${kept(file)}.tmp`, now);
    renameSync(`${kept(file)}.tmp`, file);
  }
} else if (step === "restore") {
  for (const file of FILES) if (existsSync(kept(file))) renameSync(kept(file), file);
} else {
  throw new Error(`usage: node scripts/pack-manifest.mjs strip|restore, not ${step}`);
}
