import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import YAML from "yaml";
import { parseFlags } from "./args.js";
import { packLine, type PackedLine } from "./line.js";
import { SchemaInputError } from "./parse.js";
import { readPin, readPublished } from "./pin.js";
import { run } from "./releases.js";
import { compareVersions, lineVersion } from "./versions.js";

/**
 * `npm run release -- --dry-run`: everything a release does but publish. Every line up to the
 * pin is packed as the release workflow packs it (`pack:line --git-tag v<version>`, which
 * refuses a tag whose patch is not the release counter or a version without its CHANGELOG
 * section); each tarball is read back (version, publishConfig.tag, README install line,
 * CHANGELOG's first section) and given to `npm publish --dry-run` under its dist-tag; a git tag
 * that already exists must be on this commit; and the workflow must publish with provenance.
 * Only the dry run exists: publishing is the release workflow's, from a pushed tag.
 */

export interface ReleaseOptions {
  root: string;
  argv?: readonly string[];
  env?: NodeJS.ProcessEnv;
  log?: (text: string) => void;
}

export interface CheckedLine extends PackedLine {
  readmeInstall: string;
  changelogFirst: string;
  publishTag: string;
}

export async function runRelease(options: ReleaseOptions): Promise<CheckedLine[]> {
  const { root, env = process.env, log = console.log } = options;
  const flags = parseFlags(options.argv ?? [], { "dry-run": { type: "boolean" } });
  if (!flags["dry-run"]) {
    throw new SchemaInputError(
      "only --dry-run: a release is published by .github/workflows/release.yml from a pushed tag",
    );
  }
  const problems = await provenanceProblems(root);
  const pkg = JSON.parse(await readFile(path.join(root, "package.json"), "utf8")) as {
    version: string;
  };
  const pin = await readPin(root);
  const releases = Object.keys(await readPublished(root))
    .filter((release) => compareVersions(release, pin.version) <= 0)
    .sort(compareVersions)
    .reverse();
  const out = await mkdtemp(path.join(os.tmpdir(), "seqera-release-"));
  const checked: CheckedLine[] = [];
  try {
    for (const release of releases) {
      const tag = `v${lineVersion(release, pkg.version)}`;
      problems.push(...(await tagProblems(root, tag)));
      const packed = await packLine({
        root,
        env,
        argv: ["--git-tag", tag, "--out", out],
        log: () => undefined,
      });
      const line = await readTarball(packed);
      problems.push(...lineProblems(line), ...(await publishProblems(root, line)));
      log(
        `${tag}: ${path.basename(line.tarball)} ${Math.round(line.bytes / 1000)} kB, ` +
          `publishConfig.tag ${line.publishTag}, README "${line.readmeInstall}", ` +
          `CHANGELOG first "## ${line.changelogFirst}"`,
      );
      checked.push(line);
    }
  } finally {
    await rm(out, { recursive: true, force: true });
  }
  if (problems.length > 0) throw new SchemaInputError(`release dry run: ${problems.join("; ")}`);
  log(`release dry run: ${checked.length} lines ready to publish`);
  return checked;
}

async function readTarball(packed: PackedLine): Promise<CheckedLine> {
  const inside = async (file: string): Promise<string> =>
    (await run("tar", ["-xOzf", packed.tarball, `package/${file}`], path.dirname(packed.tarball)))
      .stdout;
  const manifest = JSON.parse(await inside("package.json")) as {
    publishConfig?: { tag?: string };
  };
  const readme = await inside("README.md");
  const changelog = await inside("CHANGELOG.md");
  return {
    ...packed,
    publishTag: manifest.publishConfig?.tag ?? "(none)",
    readmeInstall: /^npm install --save-exact .*$/m.exec(readme)?.[0] ?? "(none)",
    changelogFirst: /^## (.*)$/m.exec(changelog)?.[1] ?? "(none)",
  };
}

export function lineProblems(line: CheckedLine): string[] {
  const problems: string[] = [];
  if (line.publishTag !== line.distTag) {
    problems.push(`${line.version}: publishConfig.tag is ${line.publishTag}, not ${line.distTag}`);
  }
  if (!line.readmeInstall.endsWith(`seqera-api-client@${line.version}`)) {
    problems.push(`${line.version}: README installs "${line.readmeInstall}"`);
  }
  if (line.changelogFirst !== line.version) {
    problems.push(`${line.version}: CHANGELOG starts at ## ${line.changelogFirst}`);
  }
  return problems;
}

/** `npm publish --dry-run` of the tarball under its dist-tag: what the registry would get. */
async function publishProblems(root: string, line: CheckedLine): Promise<string[]> {
  const published = await run(
    "npm",
    // Its notice is the evidence: at notice level even under `npm run -s`, whose silence the
    // child npm would inherit (npm_config_loglevel).
    ["publish", line.tarball, "--dry-run", "--tag", line.distTag, "--loglevel=notice"],
    root,
  );
  const expected = `with tag ${line.distTag} and default access (dry-run)`;
  return published.code === 0 && published.stderr.includes(expected)
    ? []
    : [`${line.version}: npm publish --dry-run: ${published.stderr.trim().split("\n").at(-1)}`];
}

/** A tag of this version already pushed must be this commit: a version is published once. */
async function tagProblems(root: string, tag: string): Promise<string[]> {
  const tagged = await run("git", ["rev-parse", "--verify", "--quiet", `${tag}^{commit}`], root);
  if (tagged.code !== 0) return [];
  const head = await run("git", ["rev-parse", "HEAD"], root);
  return tagged.stdout.trim() === head.stdout.trim()
    ? []
    : [`git tag ${tag} exists on another commit: raise the release counter`];
}

interface WorkflowStep {
  name?: string;
  run?: string;
}

/** The release workflow publishes with npm provenance: id-token, --provenance, a registry. */
async function provenanceProblems(root: string): Promise<string[]> {
  const file = path.join(root, ".github", "workflows", "release.yml");
  const workflow = YAML.parse(await readFile(file, "utf8")) as {
    jobs: Record<string, { permissions?: Record<string, string>; steps?: WorkflowStep[] }>;
  };
  const publish = workflow.jobs.publish;
  const problems: string[] = [];
  if (publish?.permissions?.["id-token"] !== "write") {
    problems.push("release.yml: the publish job lacks permissions id-token: write");
  }
  const step = publish?.steps?.find((s) => s.name === "Publish");
  if (!step?.run?.includes("--provenance")) {
    problems.push("release.yml: the Publish step does not run npm publish --provenance");
  }
  return problems;
}
