import type { Emulator, Seed } from "seqera-api-client/testing";
import { expect } from "vitest";

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600_000);

/**
 * What the data-link inventory, the studio clean-up and the team onboarding expect, in the
 * library's examples and the CLI's scripts alike: two workspaces, data links with objects,
 * studios started at various times, organization members to onboard.
 */
export function resourceJobsSeed(): Seed {
  return {
    workspaces: [
      { org: "acme", name: "prod", id: 7 },
      { org: "acme", name: "dev", id: 8 },
    ],
    members: [
      { org: "acme", userName: "ana", email: "ana@acme.org" },
      { org: "acme", userName: "bo", email: "bo@acme.org" },
    ],
    credentials: [{ id: "aws1", name: "aws", workspaceId: 7 }],
    computeEnvs: [
      { id: "ce7", name: "aws", workspaceId: 7 },
      { id: "ce8", name: "aws", workspaceId: 8 },
    ],
    dataLinks: [
      {
        resourceRef: "s3://acme-raw",
        credentialsId: "aws1",
        workspaceId: 7,
        objects: { "runs/a.fastq.gz": 1000, "runs/b/b.fastq.gz": 2000, "other.txt": 5 },
      },
      { resourceRef: "s3://acme-old", workspaceId: 7 },
    ],
    studios: [
      {
        name: "stale",
        workspaceId: 7,
        computeEnvId: "ce7",
        status: "running",
        lastStarted: hoursAgo(30),
      },
      {
        name: "fresh",
        workspaceId: 7,
        computeEnvId: "ce7",
        status: "running",
        lastStarted: hoursAgo(1),
      },
      {
        name: "old-dev",
        workspaceId: 8,
        computeEnvId: "ce8",
        status: "running",
        lastStarted: hoursAgo(48),
      },
      {
        name: "off",
        workspaceId: 8,
        computeEnvId: "ce8",
        status: "stopped",
        lastStarted: hoursAgo(72),
      },
    ],
  };
}

/** The onboarding's end state, however often it ran: one team, its two members, its two roles. */
export function expectOnboarded(emulator: Emulator): void {
  const [team, ...others] = emulator.state.teams.all();
  expect(others).toEqual([]);
  expect(team!.memberIds.map((id) => emulator.state.members.get(id)!.userName)).toEqual([
    "ana",
    "bo",
  ]);
  const roles = emulator.state.participants
    .all()
    .filter((p) => p.teamId === team!.id)
    .map((p) => [emulator.state.workspaces.get(p.workspaceId)!.name, p.role]);
  expect(roles).toEqual([
    ["prod", "maintain"],
    ["dev", "launch"],
  ]);
}
