#!/usr/bin/env bash
# Creates a team if needed, adds the e-mails read on stdin, and sets its role in workspaces:
#   team-onboarding.sh acme bioinfo prod=maintain dev=launch < emails.txt
set -euo pipefail
org=$1 team=$2; shift 2
xargs seqera-api teams add "$org/$team" > /dev/null
for pair in "$@"; do
  seqera-api participants set-role "$team" "${pair#*=}" --team -w "$org/${pair%%=*}" > /dev/null
done
