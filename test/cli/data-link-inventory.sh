#!/usr/bin/env bash
# Each data link of the workspace (TOWER_WORKSPACE_ID): status, objects and bytes under a prefix.
set -euo pipefail
prefix=$1
seqera-api ListDataLinks --paginate | jq -r '"\(.id) \(.name) \(.status)"' | while read -r id name status; do
  seqera-api ExploreDataLinkTree -p dataLinkId="$id" -q paths="$prefix" \
    | jq -r --arg n "$name" --arg s "$status" '"\($n) \($s) \(.items | length) \([.items[].size] | add // 0)"'
done
