#!/usr/bin/env bash
# New keys (AWS_KEY, AWS_SECRET) for the credentials NAME in every workspace of an organization
# that has them, and the compute environments using them. The keys go through standard input,
# never an argument (process listings show those). TOWER_* variables set; jq.
set -euo pipefail
org=$1 name=$2
org_id=$(seqera-api ListOrganizations | jq --arg org "$org" '.organizations[] | select(.name == $org) | .orgId')
seqera-api ListWorkspaces -p orgId="$org_id" | jq -r '.workspaces[] | "\(.id) \(.name)"' |
  while read -r ws ws_name; do
    seqera-api ListCredentials -w "$ws" | jq -e --arg name "$name" '.credentials[] | select(.name == $name)' > /dev/null || continue
    jq -n '{accessKey: env.AWS_KEY, secretKey: env.AWS_SECRET}' | seqera-api credentials set "$name" -w "$ws" --from-file - |
      jq -r --arg ws "$ws_name" '.computeEnvs[] | "\($ws) \(.name) \(.status)"'
  done
