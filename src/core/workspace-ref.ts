/**
 * The one rule for what names a workspace, used by the options' check, the client's resolution,
 * the finders, the CLI and the Action: digits (no leading zero) are its id; "organization/workspace"
 * names it by the names the service allows (letters, digits, - and _).
 */

/** A workspace: its numeric id, or "org/workspace" (the organization's and workspace's names). */
export type WorkspaceRef = number | string;

const NAME = "[A-Za-z0-9](?:[A-Za-z0-9_-]*[A-Za-z0-9])?";
const BY_NAME = new RegExp(`^(${NAME})/(${NAME})$`);
const ID = /^[1-9]\d*$/;

export type ParsedWorkspaceRef =
  { id: string } | { organization: string; workspace: string; name: string };

/** The ref as an id or a name, trimmed; undefined when it is neither (or an unsafe number). */
export function parseWorkspaceRef(ref: unknown): ParsedWorkspaceRef | undefined {
  if (typeof ref === "number") {
    return Number.isSafeInteger(ref) && ID.test(String(ref)) ? { id: String(ref) } : undefined;
  }
  if (typeof ref !== "string") return undefined;
  const text = ref.trim();
  if (ID.test(text)) return { id: text };
  const named = BY_NAME.exec(text);
  return named ? { organization: named[1]!, workspace: named[2]!, name: text } : undefined;
}

/** Whether the text is a workspace id (as opposed to a name). */
export function isWorkspaceId(text: string): boolean {
  return ID.test(text.trim());
}
