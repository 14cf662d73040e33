import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { PackedLine } from "../../scripts/schema/line.js";
import { SCHEMA_VERSION } from "../../generated/version.js";
import type { Ran } from "../../scripts/schema/releases.js";
import { MIRROR } from "../helpers/schema.js";
import { expectLintClean } from "./lint.js";
import { lineOperations } from "./line-operations.js";
import { parseOutputs, readWorkflow, runStep, stepNamed } from "./workflow.js";

/**
 * The package line of the tree's pinned release as a downstream repo gets it: packed by
 * `npm run pack:line`, installed into a fresh project, type-checked in strict mode and run
 * against the emulator from its own `testing` entry. `npm run test:releases` runs this file in
 * its copy of the tree for every mirrored release, so every line is tried.
 */
const exec = promisify(execFile);
/** Runs a command; a failure says what the command printed (tsc's errors, npm's). */
const run = (command: string, args: string[], options: { cwd?: string } = {}) =>
  exec(command, args, options).catch((error: { stdout?: string; stderr?: string }) => {
    throw new Error(`${command} ${args.join(" ")} failed:\n${error.stdout}${error.stderr}`);
  });
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);
const pkg = JSON.parse(await readFile(path.join(root, "package.json"), "utf8"));
let dir: string;
let tarball: string;
let line: PackedLine;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "seqera-package-"));
  // The line `npm run test:releases` packed from this copy of the tree; else packed here by the
  // release workflow's own step, for this version's tag. npm pack runs with its lifecycle
  // scripts, as a publisher packs it: prepack builds (so the tarball holds what src/ and
  // generated/ say today) and strips the prepare script, postpack restores it.
  const packed = process.env.SEQERA_PACKED_LINE;
  if (packed) {
    line = JSON.parse(packed);
  } else {
    const outputs = path.join(dir, "github-output");
    await writeFile(outputs, "");
    const step = stepNamed(await readWorkflow(root), "publish", "Pack the line");
    await runStep(step, root, {
      GITHUB_REF_NAME: `v${pkg.version}`,
      GITHUB_OUTPUT: outputs,
      RUNNER_TEMP: dir,
    }).then(check);
    line = JSON.parse(await readFile(path.join(dir, "packed.json"), "utf8"));
    expect(parseOutputs(await readFile(outputs, "utf8"))).toEqual(stepOutputs(line));
  }
  tarball = line.tarball;
}, 240_000);

afterAll(() => rm(dir, { recursive: true, force: true }));

test("the tarball holds the bundled client, the generated types, the compressed schema, no sources", async () => {
  const { stdout } = await run("tar", ["-tzf", tarball]);
  const files = stdout.split("\n").filter(Boolean);
  expect(files).toEqual(
    expect.arrayContaining([
      "package/dist/src/index.js",
      "package/dist/src/index.d.ts",
      "package/dist/src/testing/index.js",
      "package/dist/src/cli/main.js",
      "package/dist/src/chunks/yaml.LICENSE",
      "package/dist/generated/schema.d.ts",
      "package/dist/generated/openapi.json.br",
      "package/README.md",
      "package/LICENSE",
      "package/CHANGELOG.md",
    ]),
  );
  expect(files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toEqual([]);
  // Bundled: the compiled modules are gone, the schema ships only compressed.
  const scripts = files.filter((f) => f.endsWith(".js"));
  expect(
    scripts.filter(
      (f) => !/^package\/dist\/src\/(index|testing\/index|cli\/main|chunks\/[^/]+)\.js$/.test(f),
    ),
  ).toEqual([]);
  expect(files).not.toContain("package/dist/generated/openapi.json");
  // No install script: npm would warn on every install of it.
  const manifest = JSON.parse(
    (await run("tar", ["-xOzf", tarball, "package/package.json"])).stdout,
  );
  expect(Object.keys(manifest.scripts)).not.toContain("prepare");
  expect(manifest.dependencies).not.toHaveProperty("yaml");
  // The repository's own package.json got its prepare script back.
  const restored = JSON.parse(await readFile(path.join(root, "package.json"), "utf8"));
  expect(restored.scripts.prepare).toBe(pkg.scripts.prepare);
});

test("the main entry is one file; the CLI and the emulator share its classes", async () => {
  const unpacked = path.join(dir, "unpacked");
  await mkdir(unpacked);
  await run("tar", ["-xzf", tarball, "-C", unpacked]);
  const dist = path.join(unpacked, "package", "dist", "src");
  // `import "seqera-api-client"` reads index.js alone: no static import of another file of
  // ours (each would cost the import its resolution and compilation), only lazy ones.
  const index = await readFile(path.join(dist, "index.js"), "utf8");
  expect(index.match(/^(?:import|export)\b[^;]*?\bfrom\s*"\.{1,2}\/[^"]*"/gm)).toBeNull();
  expect(index).toMatch(/\bimport\("#yaml"\)/);
  // One copy of each class in the package: the CLI's and the emulator's bundles import the
  // client and its errors from the main entry, so `instanceof` holds across entries.
  const scripts = (await readdir(dist, { recursive: true })).filter((f) => f.endsWith(".js"));
  const defining = async (pattern: RegExp) => {
    const files: string[] = [];
    for (const file of scripts) {
      if (pattern.test(await readFile(path.join(dist, file), "utf8"))) files.push(file);
    }
    return files;
  };
  expect(await defining(/\bSeqeraApiError\d* = class\b/)).toEqual(["index.js"]);
  expect(await defining(/\bConfigurationError\d* = class\b/)).toEqual(["index.js"]);
  expect(await defining(/\bfunction createSeqeraClient\d*\(/)).toEqual(["index.js"]);
  // yaml, used by YAML params from the library and the CLI, ships once.
  expect(await defining(/\bComposer\d* = class\b/)).toEqual(["chunks/yaml.js"]);
});

test("publint and arethetypeswrong find no problem", async () => {
  await expectLintClean(tarball);
});

test("the version names the schema release it was built from, and the line its dist-tag", async () => {
  const [major, minor] = SCHEMA_VERSION.split(".");
  expect(pkg.version).toMatch(new RegExp(`^${major}\\.${minor}\\.\\d+$`));
  expect(line).toMatchObject({
    release: SCHEMA_VERSION,
    version: pkg.version,
    lineTag: `api-${major}.${minor}`,
  });
  expect(path.basename(tarball)).toBe(`seqera-api-client-${pkg.version}.tgz`);
  expect(line.bytes).toBe((await stat(tarball)).size);
});

test("the workflow's publish step, dry run, publishes the line under its dist-tag; its line tag is one too", async () => {
  const publish = stepNamed(await readWorkflow(root), "publish", "Publish");
  const dryRun = { npm_config_dry_run: "true" };
  const published = check(await runStep(publish, root, dryRun, stepOutputs(line)));
  expect(published.stdout).toBe(`+ seqera-api-client@${pkg.version}\n`);
  expect(published.stderr).toContain(`with tag ${line.distTag} and default access (dry-run)`);
  const lineTag = await run("npm", ["publish", tarball, "--dry-run", "--tag", line.lineTag]);
  expect(lineTag.stderr).toContain(`with tag ${line.lineTag} and default access (dry-run)`);
  // Why the line's tag is not the bare major.minor the docs once gave:
  const bare = line.lineTag.replace(/^api-/, "");
  await expect(run("npm", ["publish", tarball, "--dry-run", "--tag", bare])).rejects.toThrow(
    `Tag name must not be a valid SemVer range: ${bare}`,
  );
});

test("a strict consumer project installs it, type-checks and runs against the emulator", async () => {
  const consumer = path.join(dir, "consumer");
  await mkdir(consumer);
  await writeFile(
    path.join(consumer, "package.json"),
    JSON.stringify({ name: "consumer", private: true, type: "module" }),
  );
  await writeFile(
    path.join(consumer, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        lib: ["ES2022", "DOM"],
        types: ["node"],
        typeRoots: [path.join(root, "node_modules", "@types")],
        outDir: "out",
      },
      files: ["consumer.ts", "has.ts", "line.ts", "lacking.ts"],
    }),
  );
  await cp(
    path.join(root, "test", "package", "consumer.ts.txt"),
    path.join(consumer, "consumer.ts"),
  );
  // What this line has and a neighbouring release lacks, and the reverse: its types and its
  // operation table are this release's, not another's.
  const { own, lacking } = await lineOperations(MIRROR, SCHEMA_VERSION);
  await writeFile(path.join(consumer, "has.ts"), HAS_OPERATION);
  await writeFile(path.join(consumer, "line.ts"), lineConsumer(own, lacking));
  await writeFile(path.join(consumer, "lacking.ts"), hasOperationLine("lacking", lacking));
  const install = (...specs: string[]) =>
    run(
      "npm",
      ["install", ...specs, "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"],
      { cwd: consumer },
    );
  const installed = await run(
    "npm",
    ["install", tarball, "--prefer-offline", "--no-audit", "--no-fund"],
    { cwd: consumer },
  );
  expect(installed.stderr).not.toMatch(/install.?scripts/i);
  // What a consumer of the main entry installs: the package and its dependencies, no peers.
  expect(await sizeOf(path.join(consumer, "node_modules"))).toBeLessThan(2_500_000);
  // The compressed schema (the CLI's help reads it) works from the installed package.
  const help = await run("npx", ["--no-install", "seqera-api", "ListWorkflows", "--help"], {
    cwd: consumer,
  });
  expect(help.stdout).toMatch(/^ListWorkflows: GET \/workflow\n/);
  // The emulator's libraries are optional peers: the client works without them, and the
  // testing entry says what to install.
  const entry = (name: string) => ["--input-type=module", "-e", `await import("${name}")`];
  await run("node", entry("seqera-api-client"), { cwd: consumer });
  // The installed bin runs with no peer dependency either.
  const version = await run("npx", ["--no-install", "seqera-api", "--version"], { cwd: consumer });
  expect(version.stdout).toBe(
    `seqera-api ${pkg.version} (Seqera Platform API schema ${pkg.version.replace(/\.\d+$/, ".0")})\n`,
  );
  await expect(run("node", entry("seqera-api-client/testing"), { cwd: consumer })).rejects.toThrow(
    /needs the optional peer dependency ajv; install it beside seqera-api-client: npm install ajv@\^8 ajv-formats@\^3/,
  );
  await install(
    `ajv@${pkg.peerDependencies.ajv}`,
    `ajv-formats@${pkg.peerDependencies["ajv-formats"]}`,
    `re2js@${pkg.peerDependencies.re2js}`,
  );
  // CommonJS consumers require() both entries: the same classes as import gives.
  const required = await run(
    "node",
    [
      "-e",
      `const client = require("seqera-api-client"), testing = require("seqera-api-client/testing");
       console.log(typeof client.createSeqeraClient, typeof testing.startEmulator)`,
    ],
    { cwd: consumer },
  );
  expect(required.stdout).toBe("function function\n");
  // tsc emits despite errors: the one expected error is the operation the line lacks.
  const typed = await run(bin("tsc"), ["-p", "tsconfig.json"], { cwd: consumer }).then(
    () => "",
    (error: Error) => error.message,
  );
  const errors = typed.split("\n").filter((l) => /error TS/.test(l));
  // A path the release lacks fails both Has's constraint (TS2344) and its `true` (TS2322).
  expect(errors.length).toBeGreaterThan(0);
  expect(errors.filter((l) => !/^lacking\.ts\(2,\d+\): error TS\d+: /.test(l))).toEqual([]);
  const { stdout } = await run("node", ["out/consumer.js"], { cwd: consumer });
  const result = JSON.parse(stdout);
  expect(result.schemaVersion).toBe(pkg.version.split(".").slice(0, 2).join(".") + ".0");
  expect(result.status).toBe("SUBMITTED");
  expect(result.errorId).toMatch(/^[A-Za-z0-9]+$/);
  // YAML params (yaml bundled in a lazily loaded chunk) work from the installed package.
  expect(result.paramsText).toBe("genome: GRCh38 # kept\nb: 2\n");
  // The line's emulator is its release's service; the client says which line it is.
  const ran = JSON.parse((await run("node", ["out/line.js"], { cwd: consumer })).stdout);
  expect(ran).toEqual({
    own: true,
    lacking: false,
    refused: expect.stringContaining(
      `${lacking} is not in API ${SCHEMA_VERSION}, the release this client was built from;`,
    ),
    report: expect.objectContaining({
      serverApiVersion: SCHEMA_VERSION,
      clientLine: SCHEMA_VERSION.replace(/\.\d+$/, ".x"),
      serverLine: SCHEMA_VERSION.replace(/\.\d+$/, ".x"),
      compatible: true,
    }),
  });
}, 180_000);

/**
 * `Has<"/path", "get">` is `true` where the release has the operation, else `never` (and a path
 * the release lacks is refused by the constraint): typed from the package's `paths`, as a
 * consumer writes it.
 */
const HAS_OPERATION = `\
import type { paths } from "seqera-api-client";
export type Has<P extends keyof paths, M extends string> = M extends keyof paths[P]
  ? [NonNullable<paths[P][M]>] extends [never] ? never : true
  : never;
`;

/** `export const <name>: Has<"<path>", "<method>"> = true;` for "GET /path". */
function hasOperationLine(name: string, operation: string): string {
  const [method, route] = operation.split(" ");
  const has = `Has<${JSON.stringify(route)}, ${JSON.stringify(method!.toLowerCase())}>`;
  return `import type { Has } from "./has.js";\nexport const ${name}: ${has} = true;\n`;
}

/** A consumer file typed with the line's own operation, refused the one it lacks at run time. */
const lineConsumer = (own: string, lacking: string) => `\
${hasOperationLine("own", own)}
import { checkCompatibility, createSeqeraClient, hasOperation, requireOperation } from "seqera-api-client";
import { startEmulator } from "seqera-api-client/testing";

const emulator = await startEmulator();
const client = createSeqeraClient({ baseUrl: emulator.url, token: emulator.token, env: {} });
try {
  requireOperation(${JSON.stringify(own)});
  let refused = "";
  try {
    requireOperation(${JSON.stringify(lacking)});
  } catch (error) {
    refused = (error as Error).message;
  }
  const report = await checkCompatibility(client);
  console.log(JSON.stringify({ own: hasOperation(${JSON.stringify(own)}), lacking: hasOperation(${JSON.stringify(lacking)}), refused, report }));
} finally {
  await client.close();
  await emulator.close();
}
`;

/** What the workflow's pack step writes to $GITHUB_OUTPUT for the line. */
const stepOutputs = (packed: PackedLine): Record<string, string> => ({
  tarball: packed.tarball,
  version: packed.version,
  distTag: packed.distTag,
  lineTag: packed.lineTag,
});

/** A workflow step's result, or its output in the error when it failed. */
function check(ran: Ran): Ran {
  if (ran.code !== 0)
    throw new Error(`step failed (exit ${ran.code}):\n${ran.stdout}${ran.stderr}`);
  return ran;
}

/** Bytes in the files under `dir` (what they hold, not the disk blocks they take). */
async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += (await stat(path.join(entry.parentPath, entry.name))).size;
  }
  return total;
}
