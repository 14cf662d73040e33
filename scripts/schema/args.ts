/** Command-line flags of the schema scripts: `--name value` options and bare `--name` switches. */
export interface FlagSpec {
  options?: readonly string[];
  switches?: readonly string[];
}

export interface Flags {
  options: Record<string, string>;
  switches: Set<string>;
}

/** Parses argv strictly: an unknown or value-less flag is an error, not silently ignored. */
export function parseFlags(argv: readonly string[], spec: FlagSpec): Flags {
  const flags: Flags = { options: {}, switches: new Set() };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (spec.switches?.includes(arg)) {
      flags.switches.add(arg);
    } else if (spec.options?.includes(arg)) {
      const value = argv[++i];
      if (!value || value.startsWith("--")) throw new Error(`${arg} needs a value`);
      flags.options[arg] = value;
    } else {
      const known = [...(spec.options ?? []), ...(spec.switches ?? [])].join(", ");
      throw new Error(`unknown argument '${arg}' (known: ${known})`);
    }
  }
  return flags;
}
