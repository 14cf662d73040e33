/**
 * `npm run api:report`: writes api/seqera-api-client.api.md, the package's public surface as
 * consumers' type-checkers see it: every name each entry exports, with the declaration tsc emits
 * for it (signatures, no bodies). `npm run api:report -- --check` fails when the committed
 * report differs, so a change of the surface is a reviewed diff. Declarations generated from the
 * schema (`paths`, `components`, `SCHEMA_VERSION`) are named, not printed: they are the pinned
 * release's, and generated output stays out of git. Why not @microsoft/api-extractor: it prints
 * every declaration the surface reaches, which here is the whole generated schema.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import ts from "typescript";

const ROOT = path.resolve(import.meta.dirname, "..");
const REPORT = path.join(ROOT, "api", "seqera-api-client.api.md");
const ENTRIES = [
  { name: "seqera-api-client", file: "src/index.ts" },
  { name: "seqera-api-client/testing", file: "src/testing/index.ts" },
];

/** The report's text, from the sources as they are now. */
export function apiReport(): string {
  const configFile = ts.readConfigFile(path.join(ROOT, "tsconfig.json"), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(configFile.config, ts.sys, ROOT);
  // Emitted below node_modules, so that the declarations resolve their dependencies' types.
  const outDir = path.join(ROOT, "node_modules", ".cache", "api-report");
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const sources = ENTRIES.map((entry) => path.join(ROOT, entry.file));
  const program = ts.createProgram(sources, {
    ...options,
    noEmit: false,
    declaration: true,
    emitDeclarationOnly: true,
    rootDir: ROOT,
    outDir,
  });
  program.emit();

  // A second program over the emitted declarations, to read each export's declaration text.
  const dts = (file: string) => path.join(outDir, file.replace(/\.ts$/, ".d.ts"));
  const declarations = ts.createProgram(
    ENTRIES.map((entry) => dts(entry.file)),
    { ...options, noEmit: true, paths: {} },
  );
  const checker = declarations.getTypeChecker();
  const lines = [
    "# API report: seqera-api-client",
    "",
    "Written by `npm run api:report` and checked by `npm test`: a change here is a change of the",
    "package's public surface. Declarations generated from the pinned schema are named only.",
  ];
  for (const entry of ENTRIES) {
    const file = declarations.getSourceFile(dts(entry.file))!;
    const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(file)!);
    const named = [...exports].sort((a, b) => a.name.localeCompare(b.name));
    lines.push("", `## ${entry.name} (${named.length} names)`);
    for (const symbol of named) {
      const target =
        symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      const nodes = target.declarations ?? [];
      const generated = nodes.some((node) =>
        node.getSourceFile().fileName.includes(`${path.sep}generated${path.sep}`),
      );
      lines.push("", `### ${symbol.name}`, "");
      if (generated) {
        lines.push("Generated from the pinned schema release.");
        continue;
      }
      lines.push("```ts", ...nodes.map((node) => declarationText(node)), "```");
    }
  }
  rmSync(outDir, { recursive: true, force: true });
  return `${lines.join("\n")}\n`;
}

/** A declaration as emitted, its JSDoc left out (the report is about shapes, not prose). */
function declarationText(node: ts.Node): string {
  const statement = ts.isVariableDeclaration(node) ? node.parent.parent : node;
  const printer = ts.createPrinter({ removeComments: true });
  return printer.printNode(ts.EmitHint.Unspecified, statement, statement.getSourceFile());
}

const invokedDirectly = process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename;
if (invokedDirectly) {
  const { values } = parseArgs({ options: { check: { type: "boolean", default: false } } });
  const report = apiReport();
  if (values.check) {
    if (readFileSync(REPORT, "utf8") !== report) {
      console.error(
        `${path.relative(ROOT, REPORT)} is out of date: the public surface changed. Run \`npm run api:report\` and review the diff.`,
      );
      process.exit(1);
    }
  } else {
    writeFileSync(REPORT, report);
  }
}
