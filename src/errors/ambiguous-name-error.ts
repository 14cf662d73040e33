/** More than one resource of that kind has that name; `matches` tells them apart. */
export class AmbiguousNameError extends Error {
  readonly kind: string;
  /** The name looked up. */
  readonly resourceName: string;
  readonly workspaceId: string | undefined;
  /** The ids of the resources with that name, with a longer name for each where there is one. */
  readonly matches: { id: string; name: string }[];

  constructor(
    kind: string,
    name: string,
    workspaceId: string | undefined,
    matches: { id: string; name: string }[],
  ) {
    const where = workspaceId === undefined ? "" : ` in workspace ${workspaceId}`;
    const list = matches.map((m) => `${JSON.stringify(m.name)} (id ${m.id})`).join(", ");
    super(`${matches.length} ${kind}s are named ${JSON.stringify(name)}${where}: ${list}`);
    this.kind = kind;
    this.resourceName = name;
    this.workspaceId = workspaceId;
    this.matches = matches;
  }
}
AmbiguousNameError.prototype.name = "AmbiguousNameError";
