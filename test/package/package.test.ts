import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, test } from "vitest";

/**
 * The package as a downstream repo gets it: packed, installed into a fresh project, type-checked
 * in strict mode and run against the emulator from its own `testing` entry.
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

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "seqera-package-"));
  // With its lifecycle scripts, as a publisher packs it: prepack builds (so the tarball holds
  // what src/ and generated/ say today) and strips the prepare script, postpack restores it.
  const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", dir], {
    cwd: root,
  });
  tarball = path.join(dir, JSON.parse(stdout.slice(stdout.indexOf("[")))[0].filename);
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
  const publint = await run(bin("publint"), ["run", tarball, "--strict"]);
  expect(publint.stdout).toContain("All good!");
  // ESM only, by design: node10 and require() resolution are not judged. attw exits non-zero
  // on any problem of the profile; each entry point must resolve for node16 ESM and bundlers.
  const attw = await run(bin("attw"), [tarball, "--profile", "esm-only"]);
  expect(attw.stdout.match(/^node16 \(from ESM\): 🟢 \(ESM\)$/gm)).toHaveLength(2);
  expect(attw.stdout.match(/^bundler: 🟢 $/gm)).toHaveLength(2);
});

test("the version names the schema release it was built from", async () => {
  const { SCHEMA_VERSION } = await import("../../generated/version.js");
  const [major, minor] = SCHEMA_VERSION.split(".");
  expect(pkg.version).toMatch(new RegExp(`^${major}\\.${minor}\\.\\d+$`));
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
      files: ["consumer.ts"],
    }),
  );
  await cp(
    path.join(root, "test", "package", "consumer.ts.txt"),
    path.join(consumer, "consumer.ts"),
  );
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
  await run(bin("tsc"), ["-p", "tsconfig.json"], { cwd: consumer });
  const { stdout } = await run("node", ["out/consumer.js"], { cwd: consumer });
  const result = JSON.parse(stdout);
  expect(result.schemaVersion).toBe(pkg.version.split(".").slice(0, 2).join(".") + ".0");
  expect(result.status).toBe("SUBMITTED");
  expect(result.errorId).toMatch(/^[A-Za-z0-9]+$/);
  // YAML params (yaml bundled in a lazily loaded chunk) work from the installed package.
  expect(result.paramsText).toBe("genome: GRCh38 # kept\nb: 2\n");
}, 180_000);

/** Bytes in the files under `dir` (what they hold, not the disk blocks they take). */
async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += (await stat(path.join(entry.parentPath, entry.name))).size;
  }
  return total;
}
