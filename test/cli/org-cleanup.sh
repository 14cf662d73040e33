#!/usr/bin/env bash
# Delete a label and a secret from every workspace of an organization with seqera-api.
# Args: organization label secret. TOWER_ACCESS_TOKEN, TOWER_API_ENDPOINT set; jq.
set -euo pipefail
org=$1 label=$2 secret=$3
user=$(seqera-api UserInfo | jq .user.id)
seqera-api ListWorkspacesUser -p userId="$user" |
  jq -r --arg org "$org" '.orgsAndWorkspaces[] | select(.orgName == $org and .workspaceId) | .workspaceId' |
  while read -r ws; do
    seqera-api ListLabels -w "$ws" -q search="$label" --paginate | jq -r --arg l "$label" 'select(.name == $l) | .id' |
      while read -r id; do seqera-api DeleteLabel -w "$ws" -p labelId="$id" && echo "$ws: label $label"; done
    seqera-api ListPipelineSecrets -w "$ws" | jq -r --arg s "$secret" '.pipelineSecrets[] | select(.name == $s) | .id' |
      while read -r id; do seqera-api DeletePipelineSecret -w "$ws" -p secretId="$id" && echo "$ws: secret $secret"; done
  done
