#!/usr/bin/env bash
# Roll out a version of a Launchpad pipeline with seqera-api: published, test-launched (a run
# that does not succeed stops the script), then made the default. Args: pipeline revision.
# TOWER_ACCESS_TOKEN, TOWER_API_ENDPOINT, TOWER_WORKSPACE_ID set; jq.
set -euo pipefail
pipeline=$1 revision=$2
seqera-api pipelines versions add "$pipeline" --revision "$revision" --version-name "$revision" > /dev/null
seqera-api launch "$pipeline" --version-name "$revision" --wait --poll-interval "${POLL:-30s}" > /dev/null
seqera-api pipelines versions default "$pipeline" --version-name "$revision" > /dev/null
seqera-api pipelines versions list "$pipeline" --published | jq -r '[.name, .revision, .isDefault] | @tsv'
