#!/usr/bin/env bash
# Stops the studios of every workspace of an organization running for more than N hours.
set -euo pipefail
org=$1 cutoff=$(date -d "$2 hours ago" +%s)
orgId=$(seqera-api ListOrganizations | jq --arg o "$org" '.organizations[] | select(.name == $o) | .orgId')
for ws in $(seqera-api ListWorkspaces -p orgId="$orgId" | jq '.workspaces[].id'); do
  seqera-api ListDataStudios -w "$ws" --paginate \
    | jq -r --argjson c "$cutoff" 'select(.statusInfo.status == "running" and (.lastStarted | sub("\\.[0-9]+"; "") | fromdateiso8601) < $c) | "\(.sessionId) \(.name)"' \
    | while read -r id name; do
      seqera-api StopDataStudio -w "$ws" -p sessionId="$id" > /dev/null && echo "stopped $name"
    done
done
