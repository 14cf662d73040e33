/**
 * The layers of src/ and who may import whom (checked by `npm run check:layers`, part of
 * `npm test`). Each layer imports only from the layers before it in this list, and its own:
 *
 *   schema ← errors ← core ← openapi ← model ← http, limits ← config ← client ← automation ← cli ← action
 *
 * `testing` (the emulator) imports only schema, errors, core, openapi and model: it is the service's stand-in
 * and must not share code with the client it is used to test. The CLI may import it (for
 * `seqera-api emulator`). `src/index.ts` is the package's
 * entry and may re-export any layer but cli, action and testing (their own entries).
 */
const ORDER = [
  "schema",
  "errors",
  "core",
  "openapi",
  "model",
  "http|limits",
  "config",
  "client",
  "automation",
  "cli",
  "action",
];
const layers = ORDER.flatMap((group) => group.split("|"));
const allowed = (layer) => {
  const position = ORDER.findIndex((group) => group.split("|").includes(layer));
  const below = ORDER.slice(0, position).flatMap((group) => group.split("|"));
  // The CLI serves the emulator (`seqera-api emulator`), through the testing entry only.
  return [...below, layer, ...(layer === "cli" ? ["testing"] : [])];
};
const only = (names) => `^src/(${names.join("|")})/`;

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "An import circle: the layers' order cannot hold, split out the shared piece.",
      from: {},
      to: { circular: true },
    },
    ...layers.map((layer) => ({
      name: `layer-${layer}`,
      severity: "error",
      comment: `src/${layer}/ may import only ${allowed(layer).join(", ")} (see the layer list).`,
      from: { path: `^src/${layer}/` },
      to: {
        path: only([...layers, "testing"]),
        pathNot: only(allowed(layer)),
      },
    })),
    {
      name: "layer-testing",
      severity: "error",
      comment:
        "The emulator imports only schema, errors, core, openapi and model: it stands in for the service.",
      from: { path: "^src/testing/" },
      to: {
        path: only([...layers]),
        pathNot: only(["schema", "errors", "core", "openapi", "model"]),
      },
    },
    {
      name: "entry",
      severity: "error",
      comment:
        "The main entry does not load the CLI, the action or the emulator (their own entries).",
      from: { path: "^src/index\\.ts$" },
      to: { path: "^src/(cli|action|testing)/" },
    },
    {
      name: "no-root-files",
      severity: "error",
      comment: "Every source file but the entry lives in its layer's folder.",
      from: { path: "^src/(?!index\\.ts$)[^/]+$" },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    exclude: { path: "^(node_modules|dist|generated)/" },
  },
};
