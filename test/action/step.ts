/**
 * The GitHub Action run as the runner runs it: its bundle, built by the release's own script
 * (scripts/build-action.mjs) into a folder with nothing else (no node_modules, no schema), run
 * by node with every input as INPUT_<NAME> (its action.yml default, or empty), GITHUB_OUTPUT
 * and GITHUB_STEP_SUMMARY files, GITHUB_ACTIONS=true.
 */
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Emulator } from "seqera-api-client/testing";
import { expect } from "vitest";
import { INPUT_DEFAULTS, INPUT_NAMES, inputVariable } from "../../src/action/inputs.js";
import { root, runCommand } from "../cli/cli.js";

const bundles = new Map<string, Promise<string>>();

/**
 * The action's bundle, built by `node scripts/build-action.mjs` into `<dir>/bundle/` (once per
 * steps folder, which its caller removes): a folder with nothing else in it.
 */
export function actionMain(dir: string): Promise<string> {
  let bundle = bundles.get(dir);
  if (!bundle) {
    bundle = (async () => {
      const file = path.join(dir, "bundle", "index.mjs");
      const built = await runCommand(process.execPath, ["scripts/build-action.mjs", file], {
        cwd: root,
        limitMs: 60_000,
      });
      if (built.code !== 0) throw new Error(`scripts/build-action.mjs failed: ${built.stderr}`);
      return file;
    })();
    bundles.set(dir, bundle);
  }
  return bundle;
}

/** A folder for the steps' files; the caller removes it. */
export const stepsDir = () => mkdtemp(path.join(tmpdir(), "seqera-action-"));

export interface StepFiles {
  output: string;
  summary: string;
}

let steps = 0;
/** The runner's environment for one step against `emulator`: every input, and its files. */
export async function stepEnv(dir: string, emulator: Emulator, inputs: Record<string, string>) {
  const n = ++steps;
  const files = { output: path.join(dir, `output-${n}`), summary: path.join(dir, `summary-${n}`) };
  await Promise.all([writeFile(files.output, ""), writeFile(files.summary, "")]);
  const env: Record<string, string> = {
    GITHUB_ACTIONS: "true",
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_REPOSITORY: "acme/pipeline",
    TOWER_API_ENDPOINT: emulator.url,
    TOWER_ACCESS_TOKEN: emulator.token,
  };
  for (const name of INPUT_NAMES)
    env[inputVariable(name)] = inputs[name] ?? INPUT_DEFAULTS[name] ?? "";
  return { env, files };
}

/** The outputs the step set (each a heredoc, as the runner reads them) and its summary. */
export async function collect(files: StepFiles) {
  const text = await readFile(files.output, "utf8");
  const outputs: Record<string, string> = {};
  for (const [, name, delimiter, value] of text.matchAll(/^(\w+)<<(\S+)\n([\s\S]*?)\n\2$/gm)) {
    expect(delimiter).toMatch(/^ghadelimiter_/);
    outputs[name!] = value!;
  }
  return { outputs, summary: await readFile(files.summary, "utf8") };
}

export interface Step {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
}

/** Runs one step to its end, in `cwd` (default the project's root), with `env` added. */
export async function runStep(
  dir: string,
  emulator: Emulator,
  inputs: Record<string, string>,
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<Step> {
  const { env, files } = await stepEnv(dir, emulator, inputs);
  const result = await runCommand(process.execPath, [await actionMain(dir)], {
    env: { ...env, ...options.env },
    cwd: options.cwd,
    limitMs: 50_000,
  });
  return {
    code: result.code,
    stdout: result.stdout,
    stderr: result.stderr,
    ...(await collect(files)),
  };
}

/** The lines of the step's log the runner reads as commands, but the token's mask. */
export const commands = (stdout: string) =>
  stdout.split("\n").filter((line) => line.startsWith("::") && !line.startsWith("::add-mask::"));
