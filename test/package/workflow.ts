import { readFile } from "node:fs/promises";
import path from "node:path";
import YAML from "yaml";
import { run, type Ran } from "../../scripts/schema/releases.js";

/** A workflow of .github/workflows/, as GitHub Actions reads it. */
export interface Workflow {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: Record<string, Job>;
}

export interface Job {
  /** A reusable workflow the job calls, instead of steps. */
  uses?: string;
  needs?: string | string[];
  permissions?: Record<string, string>;
  "timeout-minutes"?: number;
  steps?: Step[];
}

export interface Step {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  with?: Record<string, unknown>;
  run?: string;
  env?: Record<string, string>;
}

export async function readWorkflow(root: string, name = "release.yml"): Promise<Workflow> {
  const file = path.join(root, ".github", "workflows", name);
  return YAML.parse(await readFile(file, "utf8")) as Workflow;
}

/** The job's step of that name; throws if there is none. */
export function stepNamed(workflow: Workflow, job: string, name: string): Step {
  const step = workflow.jobs[job]?.steps?.find((s) => s.name === name);
  if (!step?.run)
    throw new Error(`release.yml: job ${job} has no step '${name}' that runs a script`);
  return step;
}

/**
 * Runs a step's script as Actions does (bash -e -o pipefail), its `env` resolved:
 * `${{ steps.<id>.outputs.<key> }}` from `outputs`, secrets empty.
 */
export function runStep(
  step: Step,
  cwd: string,
  env: Record<string, string>,
  outputs: Record<string, string> = {},
): Promise<Ran> {
  const resolved = Object.fromEntries(
    Object.entries(step.env ?? {}).map(([key, value]) => [
      key,
      value
        .replace(
          /\$\{\{\s*steps\.\w+\.outputs\.(\w+)\s*\}\}/g,
          (_, name: string) => outputs[name] ?? "",
        )
        .replace(/\$\{\{\s*secrets\.\w+\s*\}\}/g, ""),
    ]),
  );
  return run("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", step.run!], cwd, {
    ...resolved,
    ...env,
  });
}

/** `key=value` lines written to $GITHUB_OUTPUT. */
export const parseOutputs = (text: string): Record<string, string> =>
  Object.fromEntries(
    text
      .split("\n")
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
