import type { Options } from "ajv";
import type { RE2JS } from "re2js";

type RegExpEngine = NonNullable<NonNullable<Options["code"]>["regExp"]>;
/** Ajv keys compiled patterns by toString(), so each must say which pattern it is. */
type RegExpLike = ReturnType<RegExpEngine> & { toString(): string };

/**
 * The schema's `pattern`s run through RE2 (re2js), whose time is linear in the input: V8's
 * backtracking took 35 s on a 31-character name against `PipelineSecret.name`'s pattern, and
 * `timeoutMs` cannot stop synchronous work. RE2 has no backreferences or lookaround, and the
 * schema (written for Java) uses both, and a Java class intersection, so those patterns are
 * rewritten here to RE2 ones accepting exactly the same strings (test/reliability/patterns.test.ts
 * compares each with the original on inputs where V8 is fast). A pattern RE2 cannot read and
 * not listed here is not checked, with a process warning naming it: freezing the process is
 * worse than one unchecked field.
 */
export const REWRITES: Readonly<Record<string, readonly string[]>> = {
  // Organization and workspace names: each "-" or "_" followed by a letter or digit, 2 to 39
  // characters. Two patterns, both must match: the lookahead's form, and the length.
  "^[a-zA-Z\\d](?:[a-zA-Z\\d]|[-_](?=[a-zA-Z\\d])){1,38}$": [
    "^[a-zA-Z\\d](?:[-_]?[a-zA-Z\\d])+$",
    "^[-_a-zA-Z\\d]{2,39}$",
  ],
  // Pipeline secret names: after the first character, no "__", and at most 49 pieces, a piece
  // being a run of letters and digits or one "_" (the backreference is "not followed by _").
  // The four alternatives: the rest starts and ends with a run, or a run and "_", or "_" and a
  // run, or "_" and "_", counting pieces so that each stays within 49.
  "^[a-zA-Z_](?:[0-9A-Za-z]+|(_)(?!\\1)){1,49}$": [
    "^[a-zA-Z_](?:(?:[0-9A-Za-z]+_){0,24}[0-9A-Za-z]+|(?:[0-9A-Za-z]+_){1,24}|_(?:[0-9A-Za-z]+_){0,23}[0-9A-Za-z]+|_(?:[0-9A-Za-z]+_){0,24})$",
  ],
  // Java's \p{Graph} is visible ASCII (!-~); `&&[^/]` takes "/" out of the first character.
  // JavaScript cannot compile this one at all (releases 1.85.0 to 1.102.0).
  "[\\p{Graph}&&[^/]]\\p{Graph}+": ["[!-.0-~][!-~]+"],
};

/** A pattern that cannot be checked in linear time, and why. */
export type UncheckedPattern = (pattern: string, reason: string) => void;

const warnUnchecked: UncheckedPattern = (pattern, reason) =>
  process.emitWarning(
    `The schema pattern ${JSON.stringify(pattern)} is not checked: ${reason}. RE2, which checks patterns in linear time, cannot run it, and a backtracking engine could freeze the process on a hostile value.`,
    { code: "SEQERA_PATTERN_UNCHECKED" },
  );

/** Ajv's `code.regExp`: every pattern compiled by RE2, rewritten first when listed above. */
export function linearRegExp(
  re2: typeof RE2JS,
  report: UncheckedPattern = warnUnchecked,
): RegExpEngine {
  const engine = (pattern: string): RegExpLike => {
    const sources = REWRITES[pattern] ?? [pattern];
    try {
      const all = sources.map((source) => re2.compile(source));
      const checked: RegExpLike = {
        test: (value: string) => all.every((re) => re.test(value)),
        toString: () => `/${pattern}/`,
      };
      return checked;
    } catch (error) {
      report(pattern, error instanceof Error ? error.message : String(error));
      const skipped: RegExpLike = { test: () => true, toString: () => `/${pattern}/ unchecked` };
      return skipped;
    }
  };
  // Only read by Ajv's standalone code generation, which we do not use.
  engine.code = "linearRegExp";
  return engine;
}
