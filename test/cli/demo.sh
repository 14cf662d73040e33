#!/usr/bin/env bash
# npm run demo: seqera-api launches a pipeline on a local emulator, waits for it and prints its
# log. No account, no network. SEQERA_API_MAIN names the compiled CLI (default: this clone's).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
emulator=
trap '[ -n "$emulator" ] && kill "$emulator"; rm -rf "$work"' EXIT
mkdir "$work/bin"
printf '#!/bin/sh\nexec node "%s" "$@"\n' "${SEQERA_API_MAIN:-$root/dist/src/cli/main.js}" \
  > "$work/bin/seqera-api"
chmod +x "$work/bin/seqera-api"
PATH="$work/bin:$PATH"

cat > "$work/seed.json" <<'JSON'
{
  "workspaces": [{ "org": "demo", "name": "showcase" }],
  "computeEnvs": [{ "name": "local", "workspaceId": "demo/showcase", "status": "AVAILABLE" }],
  "pipelines": [{ "name": "hello", "workspaceId": "demo/showcase",
                  "launch": { "pipeline": "https://github.com/nextflow-io/hello", "workDir": "/tmp/work" } }]
}
JSON
: > "$work/emulator.env" # exists before the background job opens it: the loop reads it at once
seqera-api emulator --seed "$work/seed.json" > "$work/emulator.env" &
emulator=$!
for _ in $(seq 100); do [ "$(wc -l < "$work/emulator.env")" -ge 2 ] && break; sleep 0.1; done
set -a; . "$work/emulator.env"; set +a
export TOWER_WORKSPACE_ID=demo/showcase
echo "emulator at $TOWER_API_ENDPOINT, workspace $TOWER_WORKSPACE_ID"

echo '$ seqera-api launch hello --wait'
launched=$(seqera-api launch hello --wait --poll-interval 200ms)
field() { node -p "JSON.parse(process.argv[1]).$2" "$1"; }
id=$(field "$launched" workflowId)
echo "run $id ended $(field "$launched" run.status)"

echo "\$ seqera-api logs $id"
seqera-api logs "$id"
