import { spawn } from "node:child_process";
import { cp, mkdir, readdir, readFile, realpath, rm, symlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import YAML from "yaml";
import { isRecord } from "../../src/openapi/document.js";
import { parseFlags } from "./args.js";
import { obtainTestInputs, schemasDir } from "./inputs.js";
import type { PackedLine } from "./line.js";
import { parseSchema } from "./parse.js";
import { movePackageVersion, readPin, writePin } from "./pin.js";
import { sha256 } from "./source.js";
import { compareVersions, satisfies } from "./versions.js";

/**
 * `npm run test:releases`: builds the project against every mirrored release. generated/ is
 * imported by static paths, so each release gets its own copy of the tree (sources, tests,
 * scripts, schema; node_modules linked), with the pin moved to that release, then: generate,
 * type-check src/ and test/, and run the tests that depend on the release (RELEASE_TESTS).
 */

/** Tests that exercise the generated tree: the emulator (its contract run against the release),
 * the call path, the client, the automation helpers and the CLI. The schema pipeline's and the
 * limiter's tests do not depend on the pinned release; `npm test` runs them once. */
export const RELEASE_TESTS = [
  "test/testing",
  "test/http",
  "test/client",
  "test/automation",
  "test/cli",
  "test/examples",
  // The line packed by `npm run pack:line` and tried as a user gets it.
  "test/package/package.test.ts",
];

/** Test files that apply to some releases only, with why (schema/test-releases.yaml). */
export const TEST_RELEASES_FILE = path.join("schema", "test-releases.yaml");

/** What the copy needs; the rest (generated/, dist/) is made in it. */
const COPIED = [
  "src",
  "test",
  "scripts",
  "schema",
  "package.json",
  "tsconfig.json",
  ".dependency-cruiser.cjs",
  "README.md",
  // Packed with the line; the release workflow's steps are run by test/package.
  "LICENSE",
  "CHANGELOG.md",
  ".github",
  // Read by tests: the docs' examples and seeds are checked against the files they name.
  "docs",
  "ARCHITECTURE.md",
  // The GitHub Action's manifest, checked against its entry's inputs.
  "action.yml",
];

export interface ReleaseResult {
  version: string;
  /** "ok", or the generator's one-line refusal. */
  generate: string;
  /** Type errors reported in src/ and in the whole tree (src + tests + scripts). */
  srcErrors?: number;
  allErrors?: number;
  /** The line packed from the copy: version, dist-tag, size, time to pack. */
  packed?: string;
  /** The tests' summary ("42 passed"), or why they did not run. */
  suite?: string;
  passed: boolean;
  seconds: number;
  /** Test files left out: their `// releases:` range excludes this release. */
  excluded: string[];
  /** Output of the step that failed, for the log. */
  detail?: string;
}

export interface ReleasesOptions {
  root: string;
  argv?: readonly string[];
  log?: (text: string) => void;
  /**
   * Packs the release's line from its generated copy (`npm run pack:line`'s packing) into
   * `out`: test/package tries that tarball.
   */
  pack?: (copy: string, version: string, out: string) => Promise<PackedLine>;
}

/** Runs the job for the releases named in argv, else every release of the offline mirror. */
export async function runReleases(options: ReleasesOptions): Promise<ReleaseResult[]> {
  const { root, log = console.log } = options;
  const flags = parseFlags(options.argv ?? [], {
    release: { type: "string" },
    jobs: { type: "string" },
    mirror: { type: "string" },
    work: { type: "string" },
    keep: { type: "boolean" },
    "no-tests": { type: "boolean" },
  });
  // The releases as the tests obtain them (schema/published.yaml's, checked by sha256), unless
  // a mirror is given.
  if (!flags.mirror) await obtainTestInputs(root);
  const mirror = flags.mirror ? path.resolve(root, flags.mirror) : schemasDir(root);
  const versions = flags.release ? flags.release.split(",") : await mirroredReleases(mirror);
  const jobs = Number(flags.jobs ?? Math.max(1, Math.floor(os.cpus().length / 2)));
  if (!Number.isInteger(jobs) || jobs < 1) throw new Error("--jobs must be a positive integer");
  const work = path.resolve(flags.work ?? path.join(os.tmpdir(), `seqera-releases-${process.pid}`));
  await mkdir(work, { recursive: true });
  // The copies sit side by side in `work`; ../shared from each of them is the mirror's folder,
  // laid out as .cache/inputs (schemas/, real-responses/), so their tests obtain it from there.
  await linkShared(work, path.dirname(mirror));
  const results: ReleaseResult[] = [];
  const queue = [...versions];
  const tests = !flags["no-tests"];
  const worker = async (): Promise<void> => {
    for (let version = queue.shift(); version; version = queue.shift()) {
      const result = await buildRelease(root, work, mirror, version, tests, options.pack);
      log(summaryLine(result));
      if (!result.passed && result.detail) log(result.detail);
      results.push(result);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(jobs, versions.length) }, worker));
  } finally {
    if (!flags.keep) await rm(work, { recursive: true, force: true });
  }
  results.sort((a, b) => compareVersions(a.version, b.version));
  log(renderTable(results));
  return results;
}

/** The releases of the mirror (seqera-api-<version>.yml), oldest first. */
export async function mirroredReleases(mirror: string): Promise<string[]> {
  const names = await readdir(mirror);
  return names
    .map((name) => /^seqera-api-(\d+\.\d+\.\d+)\.ya?ml$/.exec(name)?.[1])
    .filter((v): v is string => v !== undefined)
    .sort(compareVersions);
}

async function linkShared(work: string, shared: string): Promise<void> {
  const link = path.join(work, "shared");
  await rm(link, { force: true, recursive: false }).catch(() => undefined);
  await symlink(await realpath(shared), link);
}

/**
 * A copy of the project's tree in `copy` (node_modules linked), pinned to the release in
 * `schemaFile` (package.json's version too: that release's line), with the test files that do
 * not apply to it left out (returned). Generation in it reads `schemaFile` (the copy's pin.json
 * sources are not used: pass `--source`).
 */
export async function copyTree(root: string, copy: string, schemaFile: string): Promise<string[]> {
  await rm(copy, { recursive: true, force: true });
  await mkdir(copy, { recursive: true });
  for (const entry of COPIED) {
    await cp(path.join(root, entry), path.join(copy, entry), { recursive: true });
  }
  await symlink(await realpath(path.join(root, "node_modules")), path.join(copy, "node_modules"));
  const text = await readFile(schemaFile, "utf8");
  const version = parseSchema(text, schemaFile).info.version;
  const pin = await readPin(root);
  await writePin(copy, { ...pin, version, sha256: sha256(text), permanent: undefined });
  await movePackageVersion(copy, version);
  return excludeTests(copy, version);
}

/** `npm run generate` in the copy, from `schemaFile`: undefined if ok, else its one-line refusal. */
export async function generateIn(copy: string, schemaFile: string): Promise<string | undefined> {
  const args = ["--import", "tsx", "scripts/generate.ts", "--source", schemaFile];
  const generated = await run(process.execPath, args, copy);
  if (generated.code === 0) return undefined;
  return generated.stderr.trim().split("\n").at(-1) ?? `exit ${generated.code}`;
}

/** The type-check of the copy (src, tests, scripts): each error line. */
export async function typeErrorsIn(copy: string): Promise<string[]> {
  const tsc = path.join(copy, "node_modules", "typescript", "bin", "tsc");
  const typed = await run(process.execPath, [tsc, "--noEmit", "-p", "tsconfig.json"], copy);
  return typed.stdout.split("\n").filter((l) => /^\S+\(\d+,\d+\): error TS/.test(l));
}

async function buildRelease(
  root: string,
  work: string,
  mirror: string,
  version: string,
  withTests: boolean,
  pack: ReleasesOptions["pack"],
): Promise<ReleaseResult> {
  const started = performance.now();
  const seconds = (): number => Math.round((performance.now() - started) / 1000);
  const copy = path.join(work, version);
  const file = path.join(mirror, `seqera-api-${version}.yml`);
  const excluded = await copyTree(root, copy, file);
  const refused = await generateIn(copy, file);
  if (refused !== undefined) {
    return {
      version,
      generate: `refused: ${refused}`,
      passed: false,
      seconds: seconds(),
      excluded,
    };
  }
  const errors = await typeErrorsIn(copy);
  const srcErrors = errors.filter((l) => l.startsWith("src/")).length;
  const result: ReleaseResult = {
    version,
    generate: "ok",
    srcErrors,
    allErrors: errors.length,
    passed: errors.length === 0,
    seconds: 0,
    excluded,
  };
  if (errors.length > 0) result.detail = errors.join("\n");
  if (withTests) {
    const env: Record<string, string> = { SEQERA_RELEASE_JOB: version };
    if (pack && errors.length === 0) {
      const packing = performance.now();
      try {
        const line = await pack(copy, version, path.join(work, `${version}-packed`));
        env.SEQERA_PACKED_LINE = JSON.stringify(line);
        const took = Math.round((performance.now() - packing) / 1000);
        result.packed = `${line.version} (${line.distTag}, ${line.bytes.toLocaleString("en")} bytes, ${took}s)`;
      } catch (err) {
        result.passed = false;
        result.detail = `pack:line: ${(err as Error).message}`;
      }
    }
    const vitest = path.join(copy, "node_modules", "vitest", "vitest.mjs");
    const tests = await run(
      process.execPath,
      [vitest, "run", "--config", "test/vitest.config.ts", ...RELEASE_TESTS],
      copy,
      env,
    );
    result.suite = testSummary(tests.stdout + tests.stderr) ?? `exit ${tests.code}`;
    if (tests.code !== 0) {
      result.passed = false;
      result.detail = [result.detail, failures(tests.stdout + tests.stderr)]
        .filter(Boolean)
        .join("\n");
    }
  }
  result.seconds = seconds();
  return result;
}

/** Removes from the copy the test files whose releases (TEST_RELEASES_FILE) exclude `version`. */
async function excludeTests(copy: string, version: string): Promise<string[]> {
  const listed: unknown = YAML.parse(await readFile(path.join(copy, TEST_RELEASES_FILE), "utf8"));
  const excluded: string[] = [];
  for (const [file, entry] of Object.entries(isRecord(listed) ? listed : {})) {
    const releases = isRecord(entry) ? entry.releases : undefined;
    if (typeof releases !== "string" || !isRecord(entry) || typeof entry.why !== "string") {
      throw new Error(`${TEST_RELEASES_FILE}: ${file} needs 'releases' and 'why'`);
    }
    if (satisfies(version, releases)) continue;
    // A file listed but gone is an error: the list must not outlive the tests it names.
    await rm(path.join(copy, file));
    excluded.push(file);
  }
  return excluded.sort();
}

/** vitest's "Tests  12 failed | 340 passed (352)" line, without colours. */
function testSummary(output: string): string | undefined {
  const line = stripAnsi(output)
    .split("\n")
    .find((l) => /^\s*Tests\s+\d/.test(l));
  return line?.trim().replace(/^Tests\s+/, "");
}

function failures(output: string): string {
  return stripAnsi(output)
    .split("\n")
    .filter((l) => /^\s*(FAIL|×|✗)\s/.test(l))
    .slice(0, 40)
    .join("\n");
}

const stripAnsi = (text: string): string => text.replace(/\x1b\[[0-9;]*m/g, "");

export function summaryLine(r: ReleaseResult): string {
  const typed =
    r.allErrors === undefined ? "" : `, type errors ${r.srcErrors} in src/, ${r.allErrors} in all`;
  const suite = (r.packed ? `, packed ${r.packed}` : "") + (r.suite ? `, tests ${r.suite}` : "");
  const left = r.excluded.length
    ? `; ${r.excluded.length} test files not for it: ${r.excluded.join(", ")}`
    : "";
  return `release ${r.version}: ${r.passed ? "ok" : "FAILED"}: generate ${r.generate}${typed}${suite} (${r.seconds}s)${left}`;
}

/** The job's result as a Markdown table, one row per release. */
export function renderTable(results: readonly ReleaseResult[]): string {
  const rows = results.map(
    (r) =>
      `| ${r.version} | ${r.generate} | ${r.srcErrors ?? "—"} | ${r.allErrors ?? "—"} | ` +
      `${r.packed ?? "—"} | ${r.suite ?? "—"} | ${r.seconds}s |`,
  );
  return [
    "| release | generate | type errors in src/ | src + tests | line packed | tests | time |",
    "|---|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

/** A finished child process: its exit code and output. */
export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end, collecting its output; SEQERA_SCHEMA_SOURCE unset, no colours. */
export function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, SEQERA_SCHEMA_SOURCE: "", FORCE_COLOR: "0", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
