/**
 * `npm run bench`, the package as a consumer gets it: `npm pack` (its prepack builds), installed
 * into a fresh project, then measured side by side with openapi-fetch 0.17 (installed with it)
 * and, with BENCH_BASELINE=<a tarball of an earlier build>, that build installed beside it.
 *
 * - Install: bytes of the consumer's node_modules (file contents, and disk use as `du` counts
 *   it), and of openapi-fetch's own packages.
 * - Cold start: `await import(<entry>)` in a fresh node process, wall and CPU time, median of
 *   ROUNDS interleaved rounds (each round starts with another case, so drift in the machine's
 *   load hits all alike); and a first call (import, create the client, one GET to a loopback
 *   server in another process).
 * - CLI start-up: `seqera-api --version` and a first call (`seqera-api ListWorkflows`), a whole
 *   process each, beside `node -e ""`.
 *
 * Prints the 1-minute load average before and after: on a shared machine figures are
 * pessimistic, the ratios less so.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { startAnswerServer } from "./answer-server.js";

const exec = promisify(execFile);
const root = fileURLToPath(new URL("../..", import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const baseline = process.env.BENCH_BASELINE;
const fmt = (x: number, digits = 1) => x.toFixed(digits);
const load = () =>
  loadavg()
    .map((x) => fmt(x, 2))
    .join(" ");

async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += (await stat(path.join(entry.parentPath, entry.name))).size;
  }
  return total;
}
const diskOf = async (dir: string) =>
  Number((await exec("du", ["-sk", dir])).stdout.split("\t")[0]) * 1024;
const mb = (bytes: number) => `${fmt(bytes / 1e6, 2)} MB`;

/** A fresh project with `specs` installed; returns its folder. */
async function project(dir: string, name: string, specs: string[]): Promise<string> {
  const folder = path.join(dir, name);
  await mkdir(folder);
  await writeFile(
    path.join(folder, "package.json"),
    JSON.stringify({ name, private: true, type: "module" }),
  );
  const { stderr } = await exec(
    "npm",
    ["install", ...specs, "--prefer-offline", "--no-audit", "--no-fund"],
    { cwd: folder },
  );
  const warnings = stderr
    .split("\n")
    .filter((l) => l.startsWith("npm warn") && !l.includes("nodedir"));
  if (warnings.length > 0)
    console.log(`  npm install ${name} warned:\n    ${warnings.join("\n    ")}`);
  return folder;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return (sorted[(sorted.length - 1) >> 1]! + sorted[sorted.length >> 1]!) / 2;
};

/** Runs each case once per round, in rotating order; returns each case's samples. */
async function interleaved<T>(
  cases: Record<string, () => Promise<T>>,
): Promise<Record<string, T[]>> {
  const entries = Object.entries(cases);
  const samples = Object.fromEntries(entries.map(([name]) => [name, [] as T[]]));
  for (const [, run] of entries) await run(); // warm the file cache
  for (let round = 0; round < ROUNDS; round++) {
    const order = [
      ...entries.slice(round % entries.length),
      ...entries.slice(0, round % entries.length),
    ];
    for (const [name, run] of order) samples[name]!.push(await run());
  }
  return samples;
}

/** A node process that times `body` (wall and CPU ms); prints nothing else. */
async function timed(cwd: string, body: string): Promise<{ wall: number; cpu: number }> {
  const script =
    `const cpu0 = process.cpuUsage(); const t0 = performance.now();\n${body}\n` +
    `const cpu = process.cpuUsage(cpu0);\n` +
    `console.log(JSON.stringify({ wall: performance.now() - t0, cpu: (cpu.user + cpu.system) / 1000 }));`;
  const { stdout } = await exec(process.execPath, ["--input-type=module", "-e", script], { cwd });
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as { wall: number; cpu: number };
}

/** Wall ms of a whole process. */
async function whole(
  cwd: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<number> {
  const started = performance.now();
  await exec(process.execPath, args, { cwd, env: { ...process.env, ...env } });
  return performance.now() - started;
}

const started = performance.now();
console.log(`package bench (load average ${load()}):`);
const dir = await mkdtemp(path.join(tmpdir(), "seqera-bench-"));
const server = await startAnswerServer({ workflows: [], totalSize: 0 });
try {
  const { stdout } = await exec("npm", ["pack", "--json", "--pack-destination", dir], {
    cwd: root,
  });
  const tarball = path.join(
    dir,
    JSON.parse(stdout.slice(stdout.indexOf("[")))[0].filename as string,
  );
  const ours = await project(dir, "ours", [tarball]);
  const bare = await project(dir, "bare", ["openapi-fetch@0.17.0"]);
  const before = baseline ? await project(dir, "before", [path.resolve(baseline)]) : undefined;

  const installs: [string, string][] = [
    ["ours", ours],
    ["openapi-fetch", bare],
  ];
  if (before) installs.push(["before", before]);
  for (const [name, folder] of installs) {
    const modules = path.join(folder, "node_modules");
    const packages = (await readdir(modules)).filter((p) => !p.startsWith("."));
    console.log(
      `install, ${name}: ${mb(await sizeOf(modules))} in files, ${mb(await diskOf(modules))} on disk ` +
        `(${packages.length} packages: ${packages.join(", ")})`,
    );
  }

  const importOf = (name: string) => `await import(${JSON.stringify(name)});`;
  // Ours throws on a failed call; openapi-fetch answers it.
  const oursCall =
    `const { createSeqeraClient } = await import("seqera-api-client");\n` +
    `const client = createSeqeraClient({ baseUrl: "${server.url}", token: "t", env: {} });\n` +
    `await client.GET("/workflow", { params: { query: {} } });`;
  const bareCall =
    `const { default: createClient } = await import("openapi-fetch");\n` +
    `const client = createClient({ baseUrl: "${server.url}", headers: { authorization: "Bearer t" } });\n` +
    `const { response } = await client.GET("/workflow", { params: { query: {} } });\n` +
    `if (response.status !== 200) throw new Error(String(response.status));`;
  const cases: Record<string, () => Promise<{ wall: number; cpu: number }>> = {
    "import ours": () => timed(ours, importOf("seqera-api-client")),
    "import openapi-fetch": () => timed(bare, importOf("openapi-fetch")),
    "first call ours": () => timed(ours, oursCall),
    "first call openapi-fetch": () => timed(bare, bareCall),
  };
  if (before) {
    cases["import before"] = () => timed(before, importOf("seqera-api-client"));
    cases["first call before"] = () => timed(before, oursCall);
  }
  const samples = await interleaved(cases);
  const wall = (name: string) => median(samples[name]!.map((s) => s.wall));
  const cpu = (name: string) => median(samples[name]!.map((s) => s.cpu));
  for (const kind of ["import", "first call"]) {
    const parts = ["ours", "openapi-fetch", ...(before ? ["before"] : [])].map(
      (who) => `${who} ${fmt(wall(`${kind} ${who}`))} ms (CPU ${fmt(cpu(`${kind} ${who}`))} ms)`,
    );
    const ratio = (who: string) =>
      `${fmt(wall(`${kind} ${who}`) / wall(`${kind} openapi-fetch`), 2)}× (CPU ${fmt(cpu(`${kind} ${who}`) / cpu(`${kind} openapi-fetch`), 2)}×)`;
    console.log(
      `${kind}, median of ${ROUNDS} interleaved rounds: ${parts.join(", ")}; ` +
        `ours ÷ openapi-fetch = ${ratio("ours")}` +
        (before ? `, before ÷ openapi-fetch = ${ratio("before")}` : ""),
    );
  }

  const bin = (folder: string) =>
    path.join(folder, "node_modules", "seqera-api-client", "dist", "src", "cli", "main.js");
  const env = { TOWER_API_ENDPOINT: server.url, TOWER_ACCESS_TOKEN: "t", TOWER_WORKSPACE_ID: "" };
  const cli: Record<string, () => Promise<number>> = {
    'node -e ""': () => whole(ours, ["-e", ""]),
    "seqera-api --version": () => whole(ours, [bin(ours), "--version"]),
    "seqera-api ListWorkflows": () => whole(ours, [bin(ours), "ListWorkflows"], env),
  };
  if (before) {
    cli["before --version"] = () => whole(before, [bin(before), "--version"]);
    cli["before ListWorkflows"] = () => whole(before, [bin(before), "ListWorkflows"], env);
  }
  const cliSamples = await interleaved(cli);
  console.log(
    `CLI start-up, whole process, median of ${ROUNDS} interleaved rounds: ` +
      Object.keys(cli)
        .map((name) => `${name} ${fmt(median(cliSamples[name]!), 0)} ms`)
        .join(", "),
  );
} finally {
  server.stop();
  await rm(dir, { recursive: true, force: true });
}
console.log(
  `package bench: ${fmt((performance.now() - started) / 1000, 0)} s (load average ${load()})`,
);
