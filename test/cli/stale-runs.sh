#!/usr/bin/env bash
# Cancels the runs of every workspace of an organization running for more than N hours, then
# watches the others until they end: exit 1 when one failed. TOWER_* variables set; jq.
set -euo pipefail
org=$1 hours=$2
seqera-api runs --organization "$org" --status RUNNING |
  jq -r "select(.elapsedMs > $hours * 3600000) | \"\(.workspaceId) \(.id) \(.runName)\"" |
  while read -r ws id name; do seqera-api cancel "$id" -w "$ws" > /dev/null && echo "cancelled $name"; done
seqera-api watch --organization "$org" --poll-interval "${POLL:-30s}" |
  jq -r 'select(.previousStatus) | "\(.run.runName): \(.previousStatus) -> \(.run.status)"'
