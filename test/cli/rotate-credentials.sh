#!/usr/bin/env bash
# New keys (AWS_KEY, AWS_SECRET) for the credentials NAME in every workspace of an organization
# that has them, and the compute environments using them. TOWER_* variables set; jq.
set -euo pipefail
org=$1 name=$2
org_id=$(seqera-api ListOrganizations | jq --arg org "$org" '.organizations[] | select(.name == $org) | .orgId')
seqera-api ListWorkspaces -p orgId="$org_id" | jq -r '.workspaces[] | "\(.id) \(.name)"' |
  while read -r ws ws_name; do
    id=$(seqera-api ListCredentials -w "$ws" | jq -r --arg name "$name" '.credentials[] | select(.name == $name) | .id')
    [ -n "$id" ] || continue
    seqera-api UpdateCredentials -w "$ws" -p credentialsId="$id" -F credentials.name="$name" -F credentials.provider=aws \
      -F credentials.keys.discriminator=aws -F credentials.keys.accessKey="$AWS_KEY" -F credentials.keys.secretKey="$AWS_SECRET"
    seqera-api ListComputeEnvs -w "$ws" | jq -r --arg id "$id" --arg ws "$ws_name" '.computeEnvs[] | select(.credentialsId == $id) | "\($ws) \(.name) \(.status)"'
  done
