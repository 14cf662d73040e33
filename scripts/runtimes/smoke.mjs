/**
 * The packed package's smoke test, run by scripts/runtimes/matrix.sh under each runtime from a
 * project that installed the tarball: the client against the emulator, a listing helper, and
 * the CLI's --version and one call, the CLI run by the same runtime as this file.
 *
 * Plain JavaScript with node: imports only, so that Node, Bun and Deno run it as it is. The
 * command that runs a script under this runtime comes in SMOKE_RUNTIME (JSON, e.g.
 * ["deno","run","-A"]); it prints one line per check and exits 1 on the first that fails.
 */
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { createSeqeraClient, listRuns, SCHEMA_VERSION } from "seqera-api-client";
import { startEmulator } from "seqera-api-client/testing";

const exec = promisify(execFile);
const runtime = JSON.parse(process.env.SMOKE_RUNTIME ?? "[]");
if (runtime.length === 0)
  throw new Error("SMOKE_RUNTIME is not set: run scripts/runtimes/matrix.sh");
const packageDir = path.dirname(
  createRequire(import.meta.url).resolve("seqera-api-client/package.json"),
);
const pkg = JSON.parse(await readFile(path.join(packageDir, "package.json"), "utf8"));
const cliMain = path.join(packageDir, pkg.bin["seqera-api"]);

function check(what, ok, detail) {
  if (!ok) {
    console.error(`FAIL ${what}: ${detail}`);
    process.exit(1);
  }
  console.log(`ok   ${what}`);
}

/** The CLI under this runtime; its exit code and output, whatever they are. */
async function cli(args, env) {
  const [command, ...prefix] = runtime;
  try {
    const { stdout, stderr } = await exec(command, [...prefix, cliMain, ...args], {
      env: { ...process.env, ...env },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    return { code: error.code, stdout: error.stdout ?? "", stderr: error.stderr ?? "" };
  }
}

// A workspace with a compute env and a run of last night, from the seed.
const emulator = await startEmulator({
  seed: {
    workspaces: [{ org: "acme", name: "genomics", id: 42 }],
    computeEnvs: [{ id: "ce1", name: "aws", workspaceId: 42, primary: true }],
    runs: [{ id: "1nightly", workspaceId: 42, runName: "nightly", status: "SUCCEEDED" }],
  },
});
// The derived client: its workspace by name, resolved once.
const client = createSeqeraClient({
  baseUrl: emulator.url,
  token: emulator.token,
  env: {},
}).withWorkspace("acme/genomics");
try {
  const { workflowId } = await client.POST("/workflow/launch", {
    body: { launch: { pipeline: "https://github.com/nf-core/rnaseq" } },
  });
  check("client: launch on the emulator", typeof workflowId === "string", String(workflowId));
  emulator.state.runs.finish(workflowId, "SUCCEEDED");
  const { workflow } = await client.GET("/workflow/{workflowId}", {
    params: { path: { workflowId } },
  });
  check("client: describe the run", workflow?.status === "SUCCEEDED", workflow?.status);

  const runs = [];
  for await (const run of listRuns(client)) runs.push(run);
  check(
    "listRuns: the seeded run and the launched one",
    runs.length === 2 && runs.some((run) => run.id === workflowId),
    JSON.stringify(runs),
  );

  const version = await cli(["--version"], {});
  check(
    "cli: --version",
    version.code === 0 && version.stdout.includes(pkg.version),
    `exit ${version.code}, stdout ${JSON.stringify(version.stdout)}, stderr ${version.stderr}`,
  );

  const call = await cli(["ListWorkflows", "-q", "max=5"], {
    TOWER_ACCESS_TOKEN: emulator.token,
    TOWER_API_ENDPOINT: emulator.url,
    TOWER_WORKSPACE_ID: "42",
  });
  let listed;
  try {
    listed = JSON.parse(call.stdout).workflows?.map((w) => w.workflow?.id);
  } catch {
    listed = undefined;
  }
  check(
    "cli: ListWorkflows against the emulator",
    call.code === 0 && listed?.length === 2 && listed.includes("1nightly"),
    `exit ${call.code}, stdout ${JSON.stringify(call.stdout.slice(0, 500))}, stderr ${call.stderr}`,
  );
  console.log(`all checks passed (schema ${SCHEMA_VERSION})`);
} finally {
  await client.close();
  await emulator.close();
}
