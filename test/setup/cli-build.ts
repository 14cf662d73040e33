/**
 * Global setup: a folder for this run's one build of the CLI, shared by every CLI test file
 * (test/cli/cli.ts builds into it when the first of them asks, the others wait for it), and
 * removed when the run ends. A build takes seconds of CPU; one per file made the suite slow.
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** An empty folder inside the project for the run's CLI build (see test/cli/cli.ts). */
    cliBuildDir: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cache = fileURLToPath(new URL("../../.cache", import.meta.url));
  await mkdir(cache, { recursive: true });
  // Inside the project, so that the CLI finds the package's package.json above it; not under
  // node_modules, which test:releases's copies of the tree link to the repository's (the CLI,
  // run by its real path, would find the repository's package.json, not the copy's).
  const dir = await mkdtemp(path.join(cache, "seqera-cli-"));
  project.provide("cliBuildDir", dir);
  return () => rm(dir, { recursive: true, force: true });
}
