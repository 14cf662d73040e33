import { randomBytes } from "node:crypto";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A base62 id like the service's (workflow ids have 14 characters, error ids 22). */
export function randomId(length: number): string {
  return Array.from(randomBytes(length), (b) => ALPHABET[b % ALPHABET.length]).join("");
}

/** The service's form for errors a caller can quote to support: "<message> - Error ID: <id>". */
export function withErrorId(message: string): string {
  return `${message} - Error ID: ${randomId(22)}`;
}

/** Timestamps as the service writes them: whole seconds, UTC, "Z". */
export function serviceTimestamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}
