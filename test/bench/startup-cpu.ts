/**
 * `npm run bench`: the CPU (user + system) of one `seqera-api` process, the package built first,
 * against the emulator (served by this process, so its work is not counted): `--version`,
 * `launch rnaseq` (five calls), and for reference a bare `node -e 0` and a bare `fetch` of one
 * answer, the floor of any process that makes a call. The cases run interleaved, BENCH_RUNS
 * times each (default 11), after one unmeasured round (which fills the workspace cache, as a
 * user's first launch does); printed are the medians and their ratios to `node -e 0`, with the
 * load average, since the machine is shared (no assertions).
 *
 * Each child reports its own `process.cpuUsage()` when it exits, through a preloaded module (the
 * same in every case, so that its small cost cancels in the ratios): /usr/bin/time counts only
 * in 10-ms steps. The children get only PATH and the TOWER_* variables (NODE_EXTRA_CA_CERTS, for
 * one, costs Node 20 0.04 s at every start). BENCH_NODE=path measures under another Node;
 * BENCH_BASE=path/to/dist/src/cli/main.js adds a launch by another build (an earlier commit's,
 * for a before/after in one run), interleaved with the others.
 */
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ONE_PIPELINE, seededEmulator } from "../automation/setup.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 11);
const node = process.env.BENCH_NODE || process.execPath;
const root = fileURLToPath(new URL("../..", import.meta.url));
const main = path.join(root, "dist/src/cli/main.js");
const REPORT =
  'data:text/javascript,process.on("exit",()=>{const u=process.cpuUsage();' +
  'process.stderr.write("\\ncpu-us "+(u.user+u.system)+"\\n")})';

/** One process's CPU in seconds, from the line its preloaded module wrote last. */
async function cpu(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn(node, [`--import=${REPORT}`, ...args], {
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const [code] = (await once(child, "close")) as [number | null];
  const match = /cpu-us (\d+)\n$/.exec(stderr);
  if (code !== 0 || !match) throw new Error(`${args.join(" ")}: exit ${code}\n${stderr}`);
  return Number(match[1]) / 1e6;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: root, stdio: "ignore" });
const emulator = await seededEmulator(ONE_PIPELINE);
const cache = await mkdtemp(path.join(tmpdir(), "seqera-bench-"));
try {
  const env = {
    PATH: process.env.PATH,
    XDG_CACHE_HOME: cache,
    TOWER_API_ENDPOINT: emulator.url,
    TOWER_ACCESS_TOKEN: emulator.token,
    TOWER_WORKSPACE_ID: "acme/prod",
  };
  const cases: [string, string[]][] = [
    ["node -e 0", ["-e", "0"]],
    [
      "node, one fetch",
      ["-e", `fetch(${JSON.stringify(`${emulator.url}/service-info`)}).then((r) => r.text())`],
    ],
    ["seqera-api --version", [main, "--version"]],
    ["seqera-api launch rnaseq", [main, "launch", "rnaseq"]],
  ];
  if (process.env.BENCH_BASE) {
    cases.push(["launch rnaseq (BENCH_BASE)", [process.env.BENCH_BASE, "launch", "rnaseq"]]);
  }
  const samples = new Map(cases.map(([name]) => [name, [] as number[]]));
  const loads: number[] = [];
  for (let round = 0; round <= RUNS; round++) {
    loads.push(loadavg()[0]!);
    for (const [name, args] of cases) {
      const seconds = await cpu(args, env);
      if (round > 0) samples.get(name)!.push(seconds);
    }
  }
  const bare = median(samples.get("node -e 0")!);
  const version = execFileSync(node, ["--version"], { encoding: "utf8" }).trim();
  console.log(
    `start-up CPU, Node ${version}, medians of ${RUNS} interleaved runs, load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}:`,
  );
  for (const [name, values] of samples) {
    const seconds = median(values);
    console.log(`  ${name.padEnd(26)} ${seconds.toFixed(3)} s  ${(seconds / bare).toFixed(2)}×`);
  }
} finally {
  await emulator.close();
  await rm(cache, { recursive: true, force: true });
}
