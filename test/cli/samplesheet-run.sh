#!/usr/bin/env bash
# Uploads a samplesheet as the dataset's new version, runs PIPELINE on it, waits, and reports
# the failed tasks with their last lines of stderr. TOWER_* variables set; jq.
set -euo pipefail
pipeline=$1 file=$2
url=$(seqera-api datasets add samples "$file" --header | jq -r .url)
id=$(seqera-api launch "$pipeline" -p input="$url" | jq -r .workflowId)
seqera-api wait "$id" --timeout 6h --poll-interval "${POLL:-30s}" > /dev/null && exit 0
seqera-api failed-tasks "$id" --lines 3 | jq -r '"\(.name) exit \(.exitStatus): \(.stderr | join(" | "))"'
exit 1
