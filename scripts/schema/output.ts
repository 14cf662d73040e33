import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * Replaces `dir` with exactly `files`, by writing a sibling directory and swapping it in, so a
 * failed run never leaves a half-written generated/.
 */
export async function writeAtomically(dir: string, files: Record<string, string>): Promise<void> {
  const staging = `${dir}.tmp-${process.pid}`;
  const old = `${dir}.old-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    await writeFile(path.join(staging, name), content);
  }
  await rename(dir, old).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== "ENOENT") throw err;
  });
  await rename(staging, dir);
  await rm(old, { recursive: true, force: true });
}

/** Names of the files that differ from, are missing in, or were added to `dir`. */
export async function staleFiles(dir: string, files: Record<string, string>): Promise<string[]> {
  const stale: string[] = [];
  for (const [name, content] of Object.entries(files)) {
    const current = await readFile(path.join(dir, name), "utf8").catch(() => undefined);
    if (current !== content) stale.push(name);
  }
  const present = await readdir(dir).catch(() => [] as string[]);
  stale.push(...present.filter((name) => !(name in files)).sort());
  return stale;
}
