/**
 * The GitHub Action's entry run as the runner runs it: a node process with every input as
 * INPUT_<NAME> (empty when not given, as action.yml maps them), GITHUB_OUTPUT and
 * GITHUB_STEP_SUMMARY files, GITHUB_ACTIONS=true.
 */
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Emulator } from "seqera-api-client/testing";
import { expect } from "vitest";
import { INPUT_NAMES, inputVariable } from "../../src/action/inputs.js";
import { runCommand, sharedBuild } from "../cli/cli.js";

/** The compiled entry (the shared test build of src/). */
export async function actionMain(): Promise<string> {
  return path.join((await sharedBuild()).outDir, "src", "action", "main.js");
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
  for (const name of INPUT_NAMES) env[inputVariable(name)] = inputs[name] ?? "";
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
  outputs: Record<string, string>;
  summary: string;
}

/** Runs one step to its end, in `cwd` (default the project's root). */
export async function runStep(
  dir: string,
  emulator: Emulator,
  inputs: Record<string, string>,
  cwd?: string,
): Promise<Step> {
  const { env, files } = await stepEnv(dir, emulator, inputs);
  const result = await runCommand(process.execPath, [await actionMain()], {
    env,
    cwd,
    limitMs: 50_000,
  });
  return { code: result.code, stdout: result.stdout, ...(await collect(files)) };
}

/** The lines of the step's log the runner reads as commands, but the token's mask. */
export const commands = (stdout: string) =>
  stdout.split("\n").filter((line) => line.startsWith("::") && !line.startsWith("::add-mask::"));
