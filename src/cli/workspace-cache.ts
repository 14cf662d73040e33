/**
 * Workspace names remembered between commands: a script calling `seqera-api -w acme/genomics`
 * sixty times looks the name up once (two calls, `GET /user-info` and `GET
 * /user/{userId}/workspaces`) rather than in every process. One small JSON file per endpoint and
 * token, named by a hash of both (the token is never written), under $XDG_CACHE_HOME/seqera-api
 * (else ~/.cache/seqera-api), readable by the user only. An entry is used for WORKSPACE_TTL_MS
 * after its lookup; a command that then answers 403 or 404 drops it, so the next command looks
 * the name up again (a workspace deleted, or re-created under the same name, costs one failed
 * command at most). SEQERA_NO_CACHE=1 turns it off. Any fault of the file (missing, unreadable,
 * not JSON) is a miss: the cache never makes a command fail.
 */
import { createHash } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import type { WorkspaceInfo, WorkspaceStore } from "../client/workspaces.js";
import { isWorkspaceId } from "../core/workspace-ref.js";

/** How long a looked-up workspace is trusted: a renamed workspace keeps its old name this long. */
export const WORKSPACE_TTL_MS = 10 * 60_000;
export const NO_CACHE_ENV = "SEQERA_NO_CACHE";

type Entries = Record<string, WorkspaceInfo & { at: number }>;
type Env = Readonly<Record<string, string | undefined>>;

/** The cache file of an endpoint and token, or undefined when caching is off. */
export function cacheFile(env: Env, endpoint: string, token: string): string | undefined {
  if (/^(1|true|yes)$/i.test(env[NO_CACHE_ENV]?.trim() ?? "")) return undefined;
  const base = env.XDG_CACHE_HOME?.trim() || path.join(env.HOME?.trim() || homedir(), ".cache");
  const hash = createHash("sha256").update(`${endpoint}\n${token}`).digest("hex").slice(0, 32);
  return path.join(base, "seqera-api", `workspaces-${hash}.json`);
}

async function read(file: string): Promise<Entries> {
  try {
    const entries: unknown = JSON.parse(await readFile(file, "utf8"));
    return typeof entries === "object" && entries !== null ? (entries as Entries) : {};
  } catch {
    return {};
  }
}

/** Replaced whole (written aside, then renamed), so a concurrent reader never sees half of it. */
async function write(file: string, entries: Entries): Promise<void> {
  try {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const aside = `${file}.${process.pid}.tmp`;
    await writeFile(aside, JSON.stringify(entries), { mode: 0o600 });
    await rename(aside, file);
  } catch {
    // A cache that cannot be written is a cache that is not used.
  }
}

/**
 * The file as the workspace module's store (client/workspaces.ts): an entry is used while it is
 * younger than WORKSPACE_TTL_MS; an entry that is not whole (ids as digits, names) is a miss.
 */
export function fileStore(file: string, now = Date.now): WorkspaceStore {
  return {
    async get(ref) {
      const entry = (await read(file))[ref];
      const at = now();
      if (!entry || !(at - entry.at < WORKSPACE_TTL_MS) || at < entry.at) return undefined;
      const { orgId, orgName, workspaceId, workspaceName } = entry;
      const whole =
        isWorkspaceId(String(workspaceId)) &&
        isWorkspaceId(String(orgId)) &&
        typeof orgName === "string" &&
        typeof workspaceName === "string";
      return whole
        ? { orgId: String(orgId), orgName, workspaceId: String(workspaceId), workspaceName }
        : undefined;
    },
    async set(ref, info) {
      const entries = await read(file);
      const at = now();
      // Expired entries go when a new one is written: the file stays small.
      for (const [key, entry] of Object.entries(entries)) {
        if (!(at - entry.at < WORKSPACE_TTL_MS)) delete entries[key];
      }
      entries[ref] = { ...info, at };
      await write(file, entries);
    },
    async delete(ref) {
      const entries = await read(file);
      if (!(ref in entries)) return;
      delete entries[ref];
      await write(file, entries);
    },
  };
}
