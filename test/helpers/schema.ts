import { createHash } from "node:crypto";
import { cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Pin } from "../../scripts/schema/pin.js";
import { recordedDir, schemasDir } from "../../scripts/schema/inputs.js";
import { run, type Ran } from "../../scripts/schema/releases.js";

/** Test helpers for the schema pipeline: temp projects, a loopback file server, the CLIs. */

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** The schema releases, obtained before the tests run (scripts/schema/inputs.ts). */
export const MIRROR = schemasDir(ROOT);
/** The recorded service answers, laid out as ../shared/real-responses (scripts/schema/inputs.ts). */
export const RECORDED = recordedDir(ROOT);
export const RELEASES = ["1.85.0", "1.102.0", "1.140.0", "1.181.0"] as const;

export const mirrorFile = (version: string): string =>
  path.join(MIRROR, `seqera-api-${version}.yml`);

export const readRelease = (version: string): Promise<string> =>
  readFile(mirrorFile(version), "utf8");

export const sha256Of = (text: string): string => createHash("sha256").update(text).digest("hex");

const tempDirs: string[] = [];

/** A fresh temp directory, removed by removeTempDirs(). */
export async function tempDir(prefix = "schema-test-"): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

export async function removeTempDirs(): Promise<void> {
  await Promise.all(tempDirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

/** Places no test may reach: a refused loopback port. */
const NOWHERE = "http://127.0.0.1:1/seqera-api-latest.yml";

/**
 * A throw-away project: the repository's overlays and rules, and a pin on `version` whose
 * places are `places` (default: the offline mirror, by absolute path, and no reachable URL),
 * so tests never touch the worktree or the network.
 */
export async function tempProject(
  version: string,
  places: Partial<Pick<Pin, "mirror" | "permanent" | "latest">> = {},
): Promise<string> {
  const root = await tempDir("schema-project-");
  await cp(path.join(ROOT, "schema", "overlays"), path.join(root, "schema", "overlays"), {
    recursive: true,
  });
  await cp(path.join(ROOT, "schema", "rules.yaml"), path.join(root, "schema", "rules.yaml"));
  const pin: Pin = {
    version,
    sha256: sha256Of(await readRelease(version)),
    mirror: path.join(MIRROR, "seqera-api-{version}.yml"),
    latest: NOWHERE,
    ...places,
  };
  await writeFile(path.join(root, "schema", "pin.json"), JSON.stringify(pin, null, 2) + "\n");
  return root;
}

export interface Served {
  url: string;
  /** The paths asked for, in order. */
  requests: string[];
  close(): Promise<void>;
}

export type Route = { body: string; type?: string } | ((res: http.ServerResponse) => void);

/** A node:http server on 127.0.0.1 answering from a mutable route table; 404 otherwise. */
export async function serve(routes: Map<string, Route>): Promise<Served> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? "");
    const route = routes.get(req.url ?? "");
    if (typeof route === "function") return route(res);
    if (!route) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": route.type ?? "application/yaml" }).end(route.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type CliResult = Ran;

/** Runs one of the project's scripts as `npm run` would, without npm's own output. */
export function runScript(
  script: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<CliResult> {
  const argv = ["--import", "tsx", path.join("scripts", script), ...args];
  return run(process.execPath, argv, ROOT, { DEBUG: "", ...env });
}

/** Every file of `dir` with its bytes and mtime, to prove a failed run left it alone. */
export async function snapshot(dir: string): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const name of (await readdir(dir)).sort()) {
    const file = path.join(dir, name);
    result[name] = `${(await stat(file)).mtimeMs} ${sha256Of(await readFile(file, "utf8"))}`;
  }
  return result;
}
