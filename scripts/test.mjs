/**
 * `npm test`: the type-check and the layer check run beside vitest, not before it: most test files
 * spend their time waiting (on child processes, servers, the rate limiter's window), and tsc's
 * 20 s of CPU fills those waits. Their output is printed after vitest's, and any of the three
 * failing fails the run. Arguments go to vitest (`npm test -- test/cli`).
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { setPriority } from "node:os";

const bin = (name) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;
const matrixOnly = JSON.parse(
  readFileSync(new URL("matrix-tests.json", import.meta.url), "utf8"),
).files;
/** A file the command line names, whole or by a folder or part of its path (vitest's filters). */
const named = (file) =>
  process.argv.slice(2).some((arg) => !arg.startsWith("-") && file.includes(arg));

/**
 * Runs a command; resolves to its exit code and, when `quiet` (a check), its collected output.
 * A check runs at the lowest priority: it takes the CPU the tests leave idle, never the time
 * of a test that measures its own pace.
 */
function run(command, args, quiet) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit" });
    if (quiet && child.pid) setPriority(child.pid, 19);
    let output = "";
    child.stdout?.on("data", (chunk) => (output += chunk));
    child.stderr?.on("data", (chunk) => (output += chunk));
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}

const checks = [
  // Incremental: a run re-checks what changed since the last one (node_modules/.cache, so a
  // fresh `npm ci` starts whole).
  [
    "typecheck",
    bin("tsc"),
    [
      "--noEmit",
      "-p",
      "tsconfig.json",
      "--incremental",
      "--tsBuildInfoFile",
      "node_modules/.cache/seqera-api-client/typecheck.tsbuildinfo",
    ],
  ],
  ["check:layers", bin("depcruise"), ["src", "--config", ".dependency-cruiser.cjs"]],
].map(([name, command, args]) => run(command, args, true).then((ran) => ({ name, ...ran })));
const vitest = await run(bin("vitest"), [
  "run",
  "--config",
  "test/vitest.config.ts",
  // The release matrix's files (each builds a whole tree: a fifth of the suite's CPU), which
  // `npm run test:releases` runs; name one to run it here (`npm test -- test/package`).
  ...matrixOnly.flatMap((file) => (named(file) ? [] : ["--exclude", file])),
  ...process.argv.slice(2),
]);
let failed = vitest.code !== 0;
for (const { name, code, output } of await Promise.all(checks)) {
  console.log(`${name}: ${code === 0 ? "ok" : "FAILED"}`);
  if (code !== 0) {
    process.stdout.write(output);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
