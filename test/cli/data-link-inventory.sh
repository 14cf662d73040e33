#!/usr/bin/env bash
# Each data link of the workspace (TOWER_WORKSPACE_ID): status, objects and bytes under a folder.
set -euo pipefail
seqera-api ListDataLinks --paginate | jq -r .name | while read -r name; do
  seqera-api data-links browse "$name" "$1" | jq -r '"\(.name) \(.status) \(.objects | length) \(.bytes)"'
done
