#!/usr/bin/env bash
# Sets the pipeline secret NAME to $SECRET_VALUE and the keys of the AWS credentials CREDS to
# $AWS_KEY and $AWS_SECRET, through standard input (an argument shows in process listings; printf
# and jq -n's env are not processes' arguments), then waits for the compute environment CE.
set -euo pipefail
name=$1 creds=$2 ce=$3
printf '%s' "$SECRET_VALUE" | seqera-api secrets set "$name" --from-file - | jq -c .
jq -n '{accessKey: env.AWS_KEY, secretKey: env.AWS_SECRET}' |
  seqera-api credentials set "$creds" --from-file - | jq -r '.computeEnvs[] | "uses them: \(.name)"'
seqera-api compute-envs wait "$ce" --timeout 30m --poll-interval "${POLL:-5s}" | jq -r '"\(.name): \(.status)"'
