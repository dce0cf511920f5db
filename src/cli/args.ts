import { UsageError } from "./errors.js";

/** The options a command accepts: names without the leading `--`. */
export interface OptionSpec {
  readonly strings?: readonly string[];
  readonly flags?: readonly string[];
}

export interface ParsedArgs {
  readonly positionals: readonly string[];
  string(name: string): string | undefined;
  flag(name: string): boolean;
  /** An integer option within bounds, or `fallback` when absent; anything else is a usage error. */
  int(name: string, fallback: number, min: number, max: number): number;
}

/** Every command takes these: machine output and its own help. */
const COMMON_FLAGS = ["json", "help"];

/**
 * A strict parser for `--name value`, `--name=value`, boolean `--flag`, `-h`, and `--` (everything
 * after it is positional). Strict because an operator's typo (`--orgg acme`) must fail loudly
 * rather than silently widen a query or a revocation to the wrong organization.
 */
export function parseArgs(argv: readonly string[], spec: OptionSpec = {}): ParsedArgs {
  const strings = new Set(spec.strings ?? []);
  const flags = new Set([...(spec.flags ?? []), ...COMMON_FLAGS]);
  const values = new Map<string, string>();
  const set = new Set<string>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg === "-h") {
      set.add("help");
      continue;
    }
    if (!arg.startsWith("--") || arg === "-") {
      if (arg.startsWith("-") && arg !== "-") throw new UsageError(`unknown option ${arg}`);
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = arg.slice(2, eq >= 0 ? eq : undefined);
    if (flags.has(name)) {
      if (eq >= 0) throw new UsageError(`--${name} takes no value`);
      set.add(name);
    } else if (strings.has(name)) {
      const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined || (eq < 0 && value.startsWith("--"))) throw new UsageError(`--${name} needs a value`);
      if (values.has(name)) throw new UsageError(`--${name} given twice`);
      values.set(name, value);
    } else {
      throw new UsageError(`unknown option --${name}`);
    }
  }
  return {
    positionals,
    string: (name) => values.get(name),
    flag: (name) => set.has(name),
    int(name, fallback, min, max) {
      const raw = values.get(name);
      if (raw === undefined) return fallback;
      const n = Number(raw);
      if (!/^-?\d+$/.test(raw) || n < min || n > max)
        throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got ${raw}`);
      return n;
    },
  };
}

/** Exactly `count` positionals, named for the message when some are missing or extra. */
export function expectPositionals(args: ParsedArgs, names: readonly string[]): string[] {
  if (args.positionals.length < names.length) throw new UsageError(`missing ${names.slice(args.positionals.length).map((n) => `<${n}>`).join(" ")}`);
  if (args.positionals.length > names.length) throw new UsageError(`unexpected argument ${args.positionals[names.length]}`);
  return [...args.positionals];
}

/** An option restricted to a few values. */
export function oneOf(args: ParsedArgs, name: string, allowed: readonly string[]): string | undefined {
  const value = args.string(name);
  if (value !== undefined && !allowed.includes(value)) throw new UsageError(`--${name} must be one of ${allowed.join(", ")}, got ${value}`);
  return value;
}
