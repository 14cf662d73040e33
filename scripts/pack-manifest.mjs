/**
 * `npm pack`/`npm publish` lifecycle: the packed package.json leaves out the `prepare` script
 * (which makes `npm ci` in this repository generate and build): in a tarball npm lists it as an
 * install script and warns on every install. It also gets `repository`, `homepage` and `bugs`,
 * all three from one setting, the GitHub repository (owner/name) the package is published from:
 * SEQERA_REPOSITORY, else GITHUB_REPOSITORY (set in every GitHub Actions job, so the release
 * workflow's tarball names the repository npm provenance checks it against); neither, none of
 * the three. `strip` (prepack) keeps the file as it was beside it; `restore` (postpack) puts it
 * back.
 */
import { copyFileSync, readFileSync, renameSync, writeFileSync } from "node:fs";

const kept = "package.json.unpacked";
const step = process.argv[2];
if (step === "strip") {
  copyFileSync("package.json", kept);
  const pkg = JSON.parse(readFileSync("package.json", "utf8"));
  delete pkg.scripts.prepare;
  const repository = process.env.SEQERA_REPOSITORY || process.env.GITHUB_REPOSITORY;
  if (repository) {
    const home = `https://github.com/${repository}`;
    Object.assign(pkg, {
      repository: { type: "git", url: `git+${home}.git` },
      homepage: `${home}#readme`,
      bugs: { url: `${home}/issues` },
    });
  }
  // Replaced in one step: tests running beside `npm pack` read package.json.
  writeFileSync(`${kept}.tmp`, `${JSON.stringify(pkg, null, 2)}\n`);
  renameSync(`${kept}.tmp`, "package.json");
} else if (step === "restore") {
  renameSync(kept, "package.json");
} else {
  throw new Error(`usage: node scripts/pack-manifest.mjs strip|restore, not ${step}`);
}
