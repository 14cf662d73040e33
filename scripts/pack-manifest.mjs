/**
 * `npm pack`/`npm publish` lifecycle: the packed package.json leaves out the `prepare` script
 * (which makes `npm ci` in this repository generate and build): in a tarball npm lists it as an
 * install script and warns on every install. `strip` (prepack) keeps the file as it was beside
 * it; `restore` (postpack) puts it back.
 */
import { copyFileSync, readFileSync, renameSync, writeFileSync } from "node:fs";

const kept = "package.json.unpacked";
const step = process.argv[2];
if (step === "strip") {
  copyFileSync("package.json", kept);
  const pkg = JSON.parse(readFileSync("package.json", "utf8"));
  delete pkg.scripts.prepare;
  // Replaced in one step: tests running beside `npm pack` read package.json.
  writeFileSync(`${kept}.tmp`, `${JSON.stringify(pkg, null, 2)}\n`);
  renameSync(`${kept}.tmp`, "package.json");
} else if (step === "restore") {
  renameSync(kept, "package.json");
} else {
  throw new Error(`usage: node scripts/pack-manifest.mjs strip|restore, not ${step}`);
}
