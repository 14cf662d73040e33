#!/usr/bin/env bash
# Creates a team if needed, adds the e-mails read on stdin, and sets its role in workspaces:
#   team-onboarding.sh acme bioinfo prod=maintain dev=launch < emails.txt
set -euo pipefail
org=$1 team=$2; shift 2
orgId=$(seqera-api ListOrganizations | jq --arg o "$org" '.organizations[] | select(.name == $o) | .orgId')
teamId=$(seqera-api ListOrganizationTeams -p orgId="$orgId" -q search="$team" | jq --arg t "$team" '.teams[] | select(.name == $t) | .teamId')
[ -n "$teamId" ] || teamId=$(seqera-api CreateOrganizationTeam -p orgId="$orgId" -F team.name="$team" | jq .team.teamId)
members=$(seqera-api ListOrganizationTeamMembers -p orgId="$orgId" -p teamId="$teamId" --paginate | jq -r '.email | ascii_downcase')
while read -r email; do
  grep -qxF "${email,,}" <<< "$members" || seqera-api CreateOrganizationTeamMember -p orgId="$orgId" -p teamId="$teamId" -F userNameOrEmail="$email" > /dev/null
done
for pair in "$@"; do
  ws=$(seqera-api ListWorkspaces -p orgId="$orgId" | jq --arg w "${pair%%=*}" '.workspaces[] | select(.name == $w) | .id')
  pid=$(seqera-api ListWorkspaceParticipants -p orgId="$orgId" -p workspaceId="$ws" --paginate | jq --argjson t "$teamId" 'select(.teamId == $t) | .participantId')
  [ -n "$pid" ] || pid=$(seqera-api CreateWorkspaceParticipant -p orgId="$orgId" -p workspaceId="$ws" -F teamId="$teamId" | jq .participant.participantId)
  seqera-api UpdateWorkspaceParticipantRole -p orgId="$orgId" -p workspaceId="$ws" -p participantId="$pid" -F role="${pair#*=}"
done
