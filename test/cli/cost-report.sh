#!/usr/bin/env bash
# The runs that completed in the last week with seqera-api: name, status, duration (s), cost
# and CPU hours, then the total cost. TOWER_ACCESS_TOKEN, TOWER_API_ENDPOINT, TOWER_WORKSPACE_ID set; jq.
set -euo pipefail
seqera-api report --after "${SINCE:-7d}" > runs.jsonl
jq -r '[.runName, .status, (.durationMs // 0) / 1000, .cost, .cpuHours] | @tsv' runs.jsonl
jq -rs '"total cost: \(map(.cost // 0) | add // 0)"' runs.jsonl
