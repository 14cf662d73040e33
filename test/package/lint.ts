import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);
const exec = promisify(execFile);

/** publint (strict) and arethetypeswrong (its default profile) find no problem in `tarball`. */
export async function expectLintClean(tarball: string): Promise<void> {
  const publint = await exec(bin("publint"), ["run", tarball, "--strict"]);
  expect(publint.stdout).toContain("All good!");
  // Its default profile (strict): every entry resolves for node10, require() (a .cjs over the
  // same ES modules), node16 ESM and bundlers. JSON: its text output is a table or a list
  // depending on the terminal (CI=true prints a table); it exits non-zero on any problem.
  const attw = await exec(bin("attw"), [tarball, "--format", "json"]).catch(
    (error: Error & { stdout?: string }) => {
      if (!error.stdout) throw error;
      return { stdout: error.stdout };
    },
  );
  const { analysis } = JSON.parse(attw.stdout) as {
    analysis: {
      problems: unknown[];
      entrypoints: Record<string, { resolutions: Record<string, { resolution?: object }> }>;
    };
  };
  expect(analysis.problems).toEqual([]);
  for (const entry of [".", "./testing"]) {
    const resolved = analysis.entrypoints[entry]!.resolutions;
    for (const mode of ["node10", "node16-cjs", "node16-esm", "bundler"]) {
      expect(resolved[mode]?.resolution, `${entry} under ${mode}`).toBeDefined();
    }
  }
}
