import { expect, test } from "vitest";
import { NameNotFoundError, listWorkspaces, updateCredentials } from "../../src/index.js";
import { clientOf, seededEmulator, servedSince } from "./setup.js";

test("rotates a credential's keys in every workspace of an organization that has it; the compute environments using it, with their status", async () => {
  const emu = await seededEmulator({
    credentials: [
      { name: "aws-prod", workspaceId: 42, id: "cr42", description: "prod keys" },
      { name: "aws-prod", workspaceId: 43, id: "cr43" },
      { name: "gcp", workspaceId: 43, id: "g43", provider: "google" },
    ],
    computeEnvs: [
      { name: "batch", workspaceId: 42, credentialsId: "cr42", status: "AVAILABLE", id: "ce1" },
      { name: "spot", workspaceId: 42, credentialsId: "cr42", status: "ERRORED", id: "ce2" },
      { name: "gke", workspaceId: 43, credentialsId: "g43", status: "AVAILABLE", id: "ce3" },
    ],
  });
  try {
    const client = clientOf(emu);
    const from = emu.requests.length;
    const checked: string[] = [];
    for (const w of await listWorkspaces(client, { organization: "acme" })) {
      // The keys' type is the service's: this compiles with no cast.
      const updated = await updateCredentials(
        client.withWorkspace(w.workspaceId),
        "aws-prod",
        { discriminator: "aws", accessKey: "AKIA-NEW", secretKey: "new-secret" },
        { optional: true },
      );
      for (const ce of updated?.computeEnvs ?? [])
        checked.push(`${w.workspaceName} ${ce.name} ${ce.status}`);
    }
    expect(checked).toEqual(["prod batch AVAILABLE", "prod spot ERRORED"]);
    expect(emu.state.credentials.get("cr42")).toMatchObject({
      name: "aws-prod",
      description: "prod keys",
      keys: { accessKey: "AKIA-NEW", secretKey: "new-secret" },
    });
    expect(emu.state.credentials.get("cr43")!.keys).toMatchObject({ accessKey: "AKIA-NEW" });
    const puts = emu.requests.slice(from).filter((r) => r.operationId === "UpdateCredentials");
    expect(puts.map((r) => r.path)).toEqual(["/credentials/cr42", "/credentials/cr43"]);
    expect(servedSince(emu, from)).not.toContain("CreateCredentials");
    // By id too; a name that is not there is a NameNotFoundError naming the near ones.
    await expect(
      updateCredentials(client, "cr42", { discriminator: "aws", accessKey: "A", secretKey: "S" }),
    ).resolves.toMatchObject({ credentialsId: "cr42" });
    const error = await updateCredentials(client, "aws-prd", {
      discriminator: "aws",
      accessKey: "A",
      secretKey: "S",
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NameNotFoundError);
    expect((error as Error).message).toBe(
      'No credentials named "aws-prd" in workspace 42; did you mean "aws-prod"?',
    );
  } finally {
    await emu.close();
  }
});
