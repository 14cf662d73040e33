#!/usr/bin/env bash
# Workspaces as code in CI: a pull request shows the plan (exit 6: changes to apply after the
# merge, 0: nothing to do), main applies it, then checks that nothing drifted. TOWER_* set.
set -euo pipefail
if [ "${GITHUB_EVENT_NAME:-}" = pull_request ]; then
  status=0
  seqera-api plan seqera/*.yml --detailed-exitcode || status=$?
  [ "$status" -eq 0 ] || [ "$status" -eq 6 ]
else
  seqera-api apply seqera/*.yml
  seqera-api plan seqera/*.yml --detailed-exitcode
fi
