/**
 * The real `seqera-api` executable for the CLI tests: compiled once per test run by the
 * project's own build config (as `npm run build` does, into a private folder), then run with
 * node as a child process. The package test packs the same build.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { cp, mkdir, mkdtemp, readdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { build } from "esbuild";
import { inject } from "vitest";
import { startEmulator, type Emulator, type EmulatorOptions } from "seqera-api-client/testing";

export const root = fileURLToPath(new URL("../..", import.meta.url));

export interface BuiltCli {
  /** The build folder: what `npm run build` writes to dist/. */
  outDir: string;
  /** The compiled entry, at the place the package's `bin` names relative to the build folder. */
  main: string;
}

let shared: Promise<BuiltCli> | undefined;

/**
 * src/ and generated/ compiled once per test run (in the folder test/setup/cli-build.ts
 * provides): the first test file to ask builds, the others, in any worker, wait for its marker.
 */
export function sharedBuild(): Promise<BuiltCli> {
  shared ??= buildOnce(inject("cliBuildDir"));
  return shared;
}

async function buildOnce(dir: string): Promise<BuiltCli> {
  const outDir = path.join(dir, "build");
  const marker = path.join(dir, "built");
  const built = { outDir, main: await mainIn(outDir) };
  try {
    // mkdir is atomic: exactly one worker creates the folder and builds.
    await mkdir(outDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    await waitForMarker(marker);
    return built;
  }
  let outcome = "ok";
  try {
    await compileCli(outDir);
  } catch (error) {
    outcome = `failed: ${(error as Error).message}`;
    throw error;
  } finally {
    // Written whole, then renamed: a waiting worker never reads half of it.
    await writeFile(`${marker}.tmp`, outcome);
    await rename(`${marker}.tmp`, marker);
  }
  return built;
}

async function waitForMarker(marker: string): Promise<void> {
  const deadline = Date.now() + 110_000;
  while (Date.now() < deadline) {
    const outcome = await readFile(marker, "utf8").catch(() => undefined);
    if (outcome === "ok") return;
    if (outcome !== undefined) throw new Error(`The shared CLI build ${outcome}`);
    await sleep(100);
  }
  throw new Error(`The shared CLI build did not finish within 110 s (${marker}).`);
}

/**
 * Compiles src/ and generated/ into `outDir`, file by file as tsc emits them (the project sets
 * isolatedModules), with esbuild: in a second rather than tsc's 20 s of CPU, which would check
 * the types `npm test`'s typecheck already checks.
 */
async function compileCli(outDir: string): Promise<void> {
  const sources = (dir: string) =>
    readdir(path.join(root, dir), { recursive: true }).then((files) =>
      files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts")).map((f) => path.join(dir, f)),
    );
  await build({
    entryPoints: [...(await sources("src")), ...(await sources("generated"))],
    absWorkingDir: root,
    outbase: root,
    outdir: outDir,
    format: "esm",
    platform: "node",
    target: "es2022",
    logLevel: "error",
  });
  await cp(
    path.join(root, "generated", "openapi.json"),
    path.join(outDir, "generated", "openapi.json"),
  );
}

async function mainIn(outDir: string): Promise<string> {
  const pkg = JSON.parse(await readFile(path.join(root, "package.json"), "utf8"));
  const bin: string = pkg.bin["seqera-api"];
  // The bin names the file under the build's output folder (dist/).
  return path.join(outDir, bin.replace(/^(\.\/)?dist\//, ""));
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** The child's whole environment besides PATH and a fresh XDG_CACHE_HOME (no TOWER_* leaks in). */
  env?: Record<string, string>;
  stdin?: string;
  /** Killed after this long (a hung CLI fails the test instead of hanging it). */
  limitMs?: number;
  /** Default the project's root. */
  cwd?: string;
}

/**
 * The tw variables pointing at a server (an emulator's URL and token), with
 * TOWER_WORKSPACE_ID when `workspace` is given.
 */
export function towerEnv(
  server: { url: string; token: string },
  workspace?: string,
): Record<string, string> {
  return {
    TOWER_API_ENDPOINT: server.url,
    TOWER_ACCESS_TOKEN: server.token,
    ...(workspace === undefined ? {} : { TOWER_WORKSPACE_ID: workspace }),
  };
}

/** Runs the CLI to its end and collects its output. */
export function runCli(main: string, args: string[], options: RunOptions = {}): Promise<CliResult> {
  return runCommand(process.execPath, [main, ...args], options);
}

/** Starts the CLI and leaves it running (the emulator command); the caller ends it. */
export function startCli(main: string, args: string[], options: RunOptions = {}): ChildProcess {
  return start(process.execPath, [main, ...args], options);
}

/** The TOWER_* assignments `seqera-api emulator` prints first, as a map. */
export async function emulatorEnv(child: ChildProcess): Promise<Record<string, string>> {
  let stdout = "";
  child.stdout!.setEncoding("utf8");
  while (stdout.split("\n").length < 3) {
    const [chunk] = (await once(child.stdout!, "data")) as [string];
    stdout += chunk;
  }
  return Object.fromEntries(
    stdout
      .trim()
      .split("\n")
      .map((line) => line.split(/=(.*)/s, 2) as [string, string]),
  );
}

/** Runs any command (a shell script of the CLI) to its end and collects its output. */
export async function runCommand(
  command: string,
  args: string[],
  options: RunOptions = {},
): Promise<CliResult> {
  const child = start(command, args, options);
  // A command that exits without reading its input closes the pipe (EPIPE): its exit is the result.
  child.stdin!.on("error", () => {});
  child.stdin!.end(options.stdin ?? "");
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => child.kill("SIGKILL"), options.limitMs ?? 30_000);
  const [code, signal] = (await once(child, "close")) as [number | null, NodeJS.Signals | null];
  clearTimeout(timer);
  return { code, signal, stdout, stderr };
}

function start(command: string, args: string[], options: RunOptions): ChildProcess {
  return spawn(command, args, {
    cwd: options.cwd ?? root,
    // A cache of workspace names of its own, unless the test shares one between commands.
    env: {
      PATH: process.env.PATH ?? "",
      XDG_CACHE_HOME: path.join(tmpdir(), `seqera-cli-cache-${randomUUID()}`),
      ...options.env,
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
}

/**
 * Runs one of test/cli's shell scripts as a user would, in `work`: the built CLI first on PATH,
 * the tw variables pointing at the emulator, plus `env` (TOWER_WORKSPACE_ID among them).
 */
export async function runScript(
  main: string,
  script: string,
  args: string[],
  options: {
    work: string;
    emulator: { url: string; token: string };
    env?: Record<string, string>;
    stdin?: string;
    limitMs?: number;
  },
): Promise<CliResult> {
  const { work, emulator } = options;
  return runCommand("bash", [path.join(root, "test/cli", script), ...args], {
    cwd: work,
    env: {
      PATH: `${await binFolder(main, work)}:${process.env.PATH}`,
      ...towerEnv(emulator),
      ...options.env,
    },
    stdin: options.stdin,
    limitMs: options.limitMs,
  });
}

/** A folder holding a `seqera-api` executable for the compiled CLI, to put first on PATH. */
export async function binFolder(main: string, into: string): Promise<string> {
  const bin = path.join(into, "bin");
  await mkdir(bin, { recursive: true });
  await writeFile(
    path.join(bin, "seqera-api"),
    `#!/bin/sh\nexec "${process.execPath}" "${main}" "$@"\n`,
    {
      mode: 0o755,
    },
  );
  return bin;
}

/** Writes a file of the test's own in the temporary folder (named by the process), and gives its path. */
export async function tempFile(name: string, content: string): Promise<string> {
  const at = path.join(tmpdir(), `${process.pid}-${name}`);
  await writeFile(at, content);
  return at;
}

/** NDJSON lines parsed. */
export function lines(stdout: string): unknown[] {
  return stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/** The recipes' shell scripts need jq: a machine without it fails loudly, never skips. */
export function requireJq(): void {
  if (spawnSync("jq", ["--version"]).status !== 0) {
    throw new Error("jq is not installed: the recipes' scripts need it (apt-get install jq)");
  }
}

/**
 * The built CLI and an emulator started with `options`, side by side; the test file closes it.
 * With `workPrefix`, also `work`: a fresh temporary folder to run runScript's scripts in, named
 * from the prefix (the test file removes it).
 */
export function cliAndEmulator(
  options: EmulatorOptions,
): Promise<{ cli: BuiltCli; emulator: Emulator }>;
export function cliAndEmulator(
  options: EmulatorOptions,
  workPrefix: string,
): Promise<{ cli: BuiltCli; emulator: Emulator; work: string }>;
export async function cliAndEmulator(options: EmulatorOptions, workPrefix?: string) {
  const [cli, emulator, work] = await Promise.all([
    sharedBuild(),
    startEmulator(options),
    workPrefix === undefined ? undefined : mkdtemp(path.join(tmpdir(), workPrefix)),
  ]);
  return { cli, emulator, work };
}
