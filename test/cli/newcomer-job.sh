#!/usr/bin/env bash
# A newcomer's first job with seqera-api (TOWER_ACCESS_TOKEN, TOWER_API_ENDPOINT set; jq).
set -euo pipefail
user=$(seqera-api UserInfo | jq .user.id)
seqera-api ListWorkspacesUser -p userId="$user" | jq -r '.orgsAndWorkspaces[] | select(.workspaceName) | "\(.orgName)/\(.workspaceName)"'
export TOWER_WORKSPACE_ID=acme/prod
creds=$(seqera-api CreateCredentials -F credentials.name=aws -F credentials.provider=aws -F credentials.keys.discriminator=aws -F credentials.keys.accessKey="$AWS_KEY" -F credentials.keys.secretKey="$AWS_SECRET" | jq -r .credentialsId)
ce=$(seqera-api CreateComputeEnv -F computeEnv.name=batch -F computeEnv.platform=aws-batch -F computeEnv.credentialsId="$creds" -F computeEnv.config.discriminator=aws-batch -F computeEnv.config.region=eu-west-1 -F computeEnv.config.workDir=s3://bucket/work | jq -r .computeEnvId)
until [ "$(seqera-api DescribeComputeEnv -p computeEnvId="$ce" | jq -r .computeEnv.status)" = AVAILABLE ]; do sleep 10; done
url=$(seqera-api datasets add samples samples.csv --header | jq -r .url)
printf 'input: %s\ngenome: GRCm39\n' "$url" > params.yaml
id=$(seqera-api launch rnaseq --compute-env batch --params params.yaml | jq -r .workflowId)
seqera-api wait "$id" --timeout 6h --poll-interval "${POLL:-30s}" > /dev/null || echo "run $id did not succeed (exit $?)"
seqera-api ListWorkflowTasks -p workflowId="$id" --paginate | jq -r '"\(.task.name) \(.task.status)"'
seqera-api logs "$id"
seqera-api ListWorkflows --paginate -q search="status:FAILED after:$(date -d '7 days ago' +%F)" | jq -r .workflow.runName
