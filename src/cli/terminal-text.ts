/**
 * What a terminal would act on rather than show: C0 controls but tab and newline (a CR only
 * before a newline passes), DEL and the C1 controls. ESC starts OSC clipboard writes and
 * window titles, CSI cursor moves and colours; U+009B is a one-character CSI on some terminals.
 */
const CONTROL = /\r(?!\n)|[\0-\x08\x0b-\x0c\x0e-\x1f\x7f-\x9f]/g;

/** Text from the service made inert for a terminal: each control shown as \xHH. */
export function terminalSafe(text: string): string {
  return text.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

/** The C1 controls and DEL, which JSON.stringify leaves raw, as JSON's \u escapes. */
export function terminalSafeJson(json: string): string {
  return json.replace(/[\x7f-\x9f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
