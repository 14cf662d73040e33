#!/usr/bin/env bash
# The triage job with seqera-api: last day's failed runs, why each failed, each resumed
# (run again from scratch when it cannot be). TOWER_ACCESS_TOKEN, TOWER_API_ENDPOINT, TOWER_WORKSPACE_ID set; jq.
set -euo pipefail
seqera-api ListWorkflows --paginate -q search="status:FAILED after:$(date -u -d '1 day ago' +%F)" |
  jq -r '.workflow | [.id, .runName, .errorMessage // "-"] | @tsv' |
  while IFS=$'\t' read -r id name why; do
    new=$(seqera-api relaunch "$id" --resume-if-available)
    echo "$name failed ($why), relaunched as $(jq -r .workflowId <<< "$new")"
  done
