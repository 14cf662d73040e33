#!/usr/bin/env bash
# Launches PIPELINE once per sample, from one process (one start-up, one workspace lookup, the
# token's rate limit kept): one JSON line per row as its launch is answered; a row that fails is
# a line with its error, and the exit code is its. TOWER_* variables set; jq.
set -euo pipefail
pipeline=$1
cat > launches.csv <<'CSV'
key,pipeline,run-name,revision,labels
liver,,liver-1,3.14.0,"batch-7,tissue=liver"
"brain, left",,brain-1,3.14.0,"batch-7,tissue=brain"
heart,rnaseqq,heart-1,,batch-7
CSV
seqera-api launch "$pipeline" --rows launches.csv --profile test |
  jq -r '"\(.row) \(.key): \(if .workflowId then "launched" else .error end)"' | sort
