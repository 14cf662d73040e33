#!/usr/bin/env bash
# Copies the pipelines of one workspace missing in another (org/workspace both), each on the
# compute environment of the same name there, else its primary. TOWER_* variables set; jq.
set -euo pipefail
from=$1 to=$2
comm -23 <(seqera-api ListPipelines -w "$from" --paginate | jq -r .name | sort) \
  <(seqera-api ListPipelines -w "$to" --paginate | jq -r .name | sort) |
  while read -r name; do
    seqera-api copy-pipeline "$name" -w "$from" --to "$to" | jq -r --arg name "$name" '"\($name): compute env by \(.computeEnvBy)"'
  done
