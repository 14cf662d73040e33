import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseCommand } from "./args.js";
import { SchemaInputError, parseSchema } from "./parse.js";
import {
  downloadHelp,
  explicitSource,
  mirrorFileName,
  readPin,
  readPublished,
  type Pin,
} from "./pin.js";
import { copyTree, generateIn, run } from "./releases.js";
import { obtainRelease, readLocation, timeoutFromEnv } from "./source.js";
import { lineVersion, releaseCounter } from "./versions.js";

/**
 * `npm run pack:line`: the package line of one release of the service's schema, packed as npm
 * publishes it. The pinned release's line is packed from the tree itself; any other release's
 * from a copy of the tree pinned to it (as `npm run test:releases` builds it), with the schema
 * obtained as `npm run generate` obtains the pin's.
 */

/** What a line is published as. */
export interface Line {
  /** The API release it is generated from ("1.140.0"). */
  release: string;
  /** The package's version ("1.140.3"): the release's major.minor, the release counter. */
  version: string;
  /** The dist-tag `npm publish --tag` takes: `latest` for the pinned release's line. */
  distTag: string;
  /** The line's own dist-tag ("api-1.140"), which every line gets. */
  lineTag: string;
}

export interface PackedLine extends Line {
  /** The tarball's path. */
  tarball: string;
  /** Its size in bytes. */
  bytes: number;
  /** Whether CHANGELOG.md has the version's section. */
  notes: boolean;
}

/**
 * The line of `release`, built from a tree whose package.json says `packageVersion` and whose
 * pin is `pinned`. The line's tag is not the bare "1.140": npm refuses a dist-tag that is a
 * semver range ("Tag name must not be a valid SemVer range"); `npm install pkg@1.140` resolves
 * the range itself.
 */
export function lineOf(release: string, packageVersion: string, pinned: string): Line {
  const version = lineVersion(release, packageVersion);
  const lineTag = `api-${version.split(".").slice(0, 2).join(".")}`;
  return { release, version, distTag: release === pinned ? "latest" : lineTag, lineTag };
}

/**
 * The release a git tag publishes: `v1.140.3` is the 1.140 line (API 1.140.0) at release
 * counter 3, which must be the tree's, so that the tag and the version it publishes agree.
 */
export function releaseOfTag(tag: string, packageVersion: string): string {
  const match = /^v(\d+)\.(\d+)\.(\d+)$/.exec(tag);
  if (!match) throw new SchemaInputError(`git tag '${tag}' is not v<major>.<minor>.<patch>`);
  const counter = releaseCounter(packageVersion);
  if (Number(match[3]) !== counter) {
    throw new SchemaInputError(
      `git tag ${tag} names patch ${match[3]}, but this commit's release counter (the patch of ` +
        `package.json's version ${packageVersion}) is ${counter}: tag the commit that sets it`,
    );
  }
  return `${match[1]}.${match[2]}.0`;
}

/** The body of CHANGELOG.md's `## <version>` section; undefined if there is none. */
export function releaseNotes(changelog: string, version: string): string | undefined {
  const sections = changelog.split(/^## /m).slice(1);
  const section = sections.find((s) => s.split("\n", 1)[0]!.trim() === version);
  return section?.slice(section.indexOf("\n") + 1).trim();
}

type Tarball = Pick<PackedLine, "tarball" | "bytes">;

export interface PackOptions {
  /** The project root. */
  root: string;
  /** `<release>` or `--git-tag v<version>`; `--out <dir>`, `--source <file|url>`. */
  argv?: readonly string[];
  env?: NodeJS.ProcessEnv;
  /** Where the result goes: one line, or with `--json` the PackedLine as JSON. */
  log?: (text: string) => void;
  /** A copy of the tree already pinned to the release and generated (`test:releases` makes
   * one per release): packed as it is. */
  tree?: string;
}

/** Packs the line named in argv; see docs/releases.md. */
export async function packLine(options: PackOptions): Promise<PackedLine> {
  const { root, env = process.env, log = console.log } = options;
  const { values: flags, positionals } = parseCommand(options.argv ?? [], {
    "git-tag": { type: "string" },
    out: { type: "string" },
    source: { type: "string" },
    json: { type: "boolean" },
  });
  const pkg = JSON.parse(await readFile(path.join(root, "package.json"), "utf8")) as {
    version: string;
  };
  const pin = await readPin(root);
  const tag = flags["git-tag"];
  const [release, ...extra] = tag ? [releaseOfTag(tag, pkg.version), ...positionals] : positionals;
  if (!release || extra.length > 0 || !/^\d+\.\d+\.\d+$/.test(release)) {
    throw new SchemaInputError(
      "name one release (npm run pack:line -- 1.140.0) or one git tag (--git-tag v1.140.3)",
    );
  }
  const line = lineOf(release, pkg.version, pin.version);
  const changelog = await readFile(path.join(root, "CHANGELOG.md"), "utf8");
  const notes = releaseNotes(changelog, line.version) !== undefined;
  if (tag && !notes) {
    throw new SchemaInputError(
      `CHANGELOG.md has no section '## ${line.version}': write its release notes before publishing`,
    );
  }
  const out = path.resolve(root, flags.out ?? ".");
  await mkdir(out, { recursive: true });
  const where = { root, pin, out, line, source: flags.source, env };
  const tarball = options.tree ? await npmPack(options.tree, out, line) : await packTree(where);
  const packed = { ...line, ...tarball, notes };
  log(flags.json ? JSON.stringify(packed) : describePacked(packed));
  return packed;
}

/** "1.140.0 → seqera-api-client-1.140.3.tgz (1,234,567 bytes), dist-tag api-1.140", and notes. */
export function describePacked(packed: PackedLine): string {
  const tags =
    packed.distTag === packed.lineTag ? packed.lineTag : `${packed.distTag}, ${packed.lineTag}`;
  const notes = packed.notes ? "" : `; CHANGELOG.md has no '## ${packed.version}' section yet`;
  return (
    `pack:line: API ${packed.release} → ${packed.tarball} (version ${packed.version}, ` +
    `${packed.bytes.toLocaleString("en")} bytes), dist-tags ${tags}${notes}`
  );
}

interface PackTree {
  root: string;
  pin: Pin;
  out: string;
  line: Line;
  source: string | undefined;
  env: NodeJS.ProcessEnv;
}

/** The tarball of the line: packed from the tree for the pinned release, else from a copy. */
async function packTree({ root, pin, out, line, source, env }: PackTree): Promise<Tarball> {
  const { release } = line;
  if (release === pin.version) {
    await assertGeneratedFromPin(root, pin.sha256);
    return npmPack(root, out, line);
  }
  const work = await mkdtemp(path.join(os.tmpdir(), `seqera-line-${release}-`));
  try {
    // As generate obtains the pin's: a source given by hand, else the mirror and the release's
    // permanent URL (schema/published.yaml), each checked against its sha256.
    const from = { baseDir: root, timeoutMs: timeoutFromEnv(env) };
    const explicit = explicitSource(source, env, {
      baseDir: root,
      file: mirrorFileName(pin, release),
    });
    const mirror = pin.mirror.replaceAll("{version}", release);
    const row = (await readPublished(root))[release];
    const obtained = explicit
      ? await readLocation(explicit, from)
      : row
        ? await obtainRelease(
            { version: release, sha256: row.sha256, help: downloadHelp(release, row.url) },
            [mirror, row.url],
            from,
          )
        : await readLocation(mirror, from);
    const found = parseSchema(obtained.text, obtained.origin).info.version;
    if (found !== release) {
      throw new SchemaInputError(
        `${obtained.origin} is release ${found}, not ${release}: give release ${release}'s file ` +
          `or URL with --source or SEQERA_SCHEMA_SOURCE`,
      );
    }
    const file = path.join(work, `seqera-api-${release}.yml`);
    await writeFile(file, obtained.text);
    const copy = path.join(work, "tree");
    await copyTree(root, copy, file);
    const refused = await generateIn(copy, file);
    if (refused !== undefined) throw new SchemaInputError(`release ${release}: ${refused}`);
    return await npmPack(copy, out, line);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** generated/ must be the pinned release's: the build packs whatever is there. */
async function assertGeneratedFromPin(root: string, sha256: string): Promise<void> {
  const version = await readFile(path.join(root, "generated", "version.ts"), "utf8").catch(
    () => "",
  );
  if (!version.includes(`"${sha256}"`)) {
    throw new SchemaInputError("generated/ is not from the pinned release: run 'npm run generate'");
  }
}

/**
 * `npm pack` in `dir`, with its lifecycle scripts (prepack builds dist/ and makes the packed
 * files the line's: scripts/pack-manifest.mjs, told the line's dist-tag), then a look inside the
 * tarball: the version and SCHEMA_VERSION must name the line.
 */
async function npmPack(dir: string, out: string, line: Line): Promise<Tarball> {
  const packed = await run("npm", ["pack", "--json", "--pack-destination", out], dir, {
    SEQERA_DIST_TAG: line.distTag,
  });
  if (packed.code !== 0) throw new Error(`npm pack failed:\n${packed.stdout}${packed.stderr}`);
  const [{ filename, size }] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf("["))) as [
    { filename: string; size: number },
  ];
  const tarball = path.join(out, filename);
  const inside = async (file: string): Promise<string> =>
    (await run("tar", ["-xOzf", tarball, `package/${file}`], out)).stdout;
  const { version } = JSON.parse(await inside("package.json")) as { version: string };
  const schemaVersion = /SCHEMA_VERSION = "([^"]+)"/.exec(
    await inside("dist/generated/version.d.ts"),
  )?.[1];
  if (version !== line.version || schemaVersion !== line.release) {
    throw new Error(
      `${tarball} is version ${version} from API ${schemaVersion}, not ${line.version} from ${line.release}`,
    );
  }
  return { tarball, bytes: size };
}
