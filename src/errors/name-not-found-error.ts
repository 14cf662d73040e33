/** No resource of that kind has that name (in that workspace); `candidates` are the near names. */
export class NameNotFoundError extends Error {
  /** "workspace", "pipeline", "compute environment", "credentials", "dataset", "label", "secret". */
  readonly kind: string;
  /** The name looked up. */
  readonly resourceName: string;
  /** The workspace searched, its id as digits; undefined for the personal workspace or for workspaces. */
  readonly workspaceId: string | undefined;
  /** Existing names close to `name` (edit distance, prefix), closest first; at most 5. */
  readonly candidates: string[];

  constructor(
    kind: string,
    name: string,
    workspaceId: string | undefined,
    candidates: string[],
    /** Replaces the default message, "No <kind> named "<name>" in workspace <id>; did you mean …?". */
    message?: string,
  ) {
    const where = workspaceId === undefined ? "" : ` in workspace ${workspaceId}`;
    const quoted = candidates.map((c) => JSON.stringify(c)).join(", ");
    super(
      message ??
        `No ${kind} named ${JSON.stringify(name)}${where}${quoted ? `; did you mean ${quoted}?` : ""}`,
    );
    this.kind = kind;
    this.resourceName = name;
    this.workspaceId = workspaceId;
    this.candidates = candidates;
  }
}
NameNotFoundError.prototype.name = "NameNotFoundError";
