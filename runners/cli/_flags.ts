/**
 * The one flag parser of every rtbench command (`bench`, `report`, `compare`,
 * `trend`, `calibrate`, `reproduce` and the development tools): an unknown
 * flag, a stray argument or a bad number is a {@linkcode UsageError} naming
 * the flag, never ignored. It imports nothing of the measuring layers, so the
 * commands that only read results stay light; the flag names of `run()`'s
 * request are in `_flag_names.ts`.
 *
 * @module
 */

import { parseArgs } from "@std/cli/parse-args";
import { UsageError } from "./_usage.ts";

/** What a command accepts. */
export interface FlagSpec {
  /** Flags that take a value. */
  readonly string?: readonly string[];
  /** Flags without a value (`help` and `debug` are always accepted). */
  readonly boolean?: readonly string[];
  /** Short names (`r` → `runtime`). */
  readonly alias?: Readonly<Record<string, string>>;
  /** Values of flags that are absent. */
  readonly default?: Readonly<Record<string, string>>;
  /** Flags that may be given more than once; their values are joined with commas. */
  readonly collect?: readonly string[];
  /** Whether arguments that are not flags (file names) are accepted. @default {false} */
  readonly positional?: boolean;
}

/** Parsed flags: values by name; `_` holds no stray arguments (they are refused). */
export type Flags = Record<string, string | boolean | undefined>;

/** Joins `--flag value` into `--flag=value` for value flags, so that values such as `-1` reach validation. */
function joinValues(args: readonly string[], valueFlags: readonly string[], alias: Readonly<Record<string, string>>) {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const name = a.startsWith("--") ? a.slice(2) : /^-\w$/.test(a) ? alias[a.slice(1)] : undefined;
    if (name && !a.includes("=") && valueFlags.includes(name) && i + 1 < args.length && !args[i + 1].startsWith("--")) {
      out.push(`--${name}=${args[++i]}`);
    } else {
      out.push(a);
    }
  }
  return out;
}

/** A flag without a value given one (`--sweep=garbage`) is refused, not read as on. */
function refuseBooleanValues(args: readonly string[], booleans: readonly string[]): void {
  for (const a of args) {
    const m = /^--([^=]+)=(.*)$/s.exec(a);
    if (m && booleans.includes(m[1])) throw new UsageError(`--${m[1]} takes no value, got "${m[2]}"`);
  }
}

/** A flag that takes one value, given twice, would keep one of them silently: refused. */
function refuseRepeats(args: readonly string[], once: readonly string[], alias: Readonly<Record<string, string>>) {
  const seen = new Set<string>();
  for (const a of args) {
    const name = a.startsWith("--") ? a.slice(2).split("=")[0] : /^-\w$/.test(a) ? alias[a.slice(1)] : undefined;
    if (name === undefined || !once.includes(name)) continue;
    if (seen.has(name)) throw new UsageError(`--${name} given twice`);
    seen.add(name);
  }
}

/**
 * Parses `args` against `spec`, with the arguments that are not flags apart;
 * throws {@linkcode UsageError} on the first unknown flag, and on a stray
 * argument unless `spec.positional`.
 *
 * @example A file and a flag
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { strictArgs } from "./_flags.ts";
 *
 * const { flags, positionals } = strictArgs(["r.json", "--format", "md"], { string: ["format"], positional: true });
 * assertEquals([flags.format, positionals], ["md", ["r.json"]]);
 * ```
 */
export function strictArgs(args: readonly string[], spec: FlagSpec): { flags: Flags; positionals: string[] } {
  const unknown: string[] = [];
  const strings = [...(spec.string ?? [])];
  const alias = { h: "help", ...spec.alias };
  refuseBooleanValues(args, [...(spec.boolean ?? []), "help", "debug"]);
  refuseRepeats(args, strings.filter((s) => !spec.collect?.includes(s)), alias);
  const flags = parseArgs(joinValues(args, strings, alias), {
    string: strings,
    boolean: [...(spec.boolean ?? []), "help", "debug"],
    collect: [...(spec.collect ?? [])],
    alias,
    default: { ...spec.default },
    unknown: (arg: string) => {
      // A number is a value, not a flag: `-1` is refused by the flag it was given to.
      if (spec.positional && !(arg.startsWith("-") && !/^-\d/.test(arg))) return true;
      unknown.push(arg);
      return false;
    },
  });
  if (unknown.length > 0) {
    const first = unknown[0];
    throw new UsageError(
      first.startsWith("-")
        ? `Unknown flag ${first.split("=")[0]} (see --help)`
        : `Unexpected argument "${first}" (see --help)`,
    );
  }
  for (const name of strings) {
    let value = flags[name] as unknown;
    if (Array.isArray(value)) {
      if (!spec.collect?.includes(name)) throw new UsageError(`--${name} given twice`);
      value = value.length === 0 ? undefined : value.join(",");
      (flags as Record<string, unknown>)[name] = value;
    }
    if (typeof value === "string" && value.trim() === "") throw new UsageError(`--${name} needs a value`);
  }
  return { flags: flags as unknown as Flags, positionals: flags._.map(String) };
}

/**
 * Parses `args` against `spec`; throws {@linkcode UsageError} on the first
 * unknown flag or stray argument.
 *
 * @example
 * ```ts
 * import { strictFlags } from "./_flags.ts";
 * const flags = strictFlags(["--rounds", "3"], { string: ["rounds"] });
 * console.log(flags.rounds); // "3"
 * ```
 */
export function strictFlags(args: readonly string[], spec: FlagSpec): Flags {
  return strictArgs(args, { ...spec, positional: false }).flags;
}

/** Bounds of {@linkcode numberFlag}. */
export interface NumberRule {
  /** Whether the value must be a whole number. @default {false} */
  readonly integer?: boolean;
  /** Smallest allowed value. */
  readonly min: number;
  /** Whether `min` itself is excluded. @default {false} */
  readonly exclusive?: boolean;
  /** Largest allowed value. @default {Infinity} */
  readonly max?: number;
}

/**
 * Reads flag `name` as a number within `rule`; undefined when absent. Throws
 * {@linkcode UsageError} naming the flag and the allowed range.
 *
 * @example
 * ```ts
 * import { numberFlag } from "./_flags.ts";
 * console.log(numberFlag({ rounds: "3" }, "rounds", { integer: true, min: 1 })); // 3
 * ```
 */
export function numberFlag(flags: Flags, name: string, rule: NumberRule): number | undefined {
  const raw = flags[name];
  if (raw === undefined) return undefined;
  const n = typeof raw === "string" && raw.trim() !== "" ? Number(raw) : NaN;
  const max = rule.max ?? Infinity;
  if (
    !Number.isFinite(n) || (rule.integer && !Number.isInteger(n)) ||
    (rule.exclusive ? n <= rule.min : n < rule.min) || n > max
  ) {
    const kind = rule.integer ? "a whole number" : "a number";
    const range = `${rule.exclusive ? ">" : "≥"} ${rule.min}${Number.isFinite(max) ? ` and ≤ ${max}` : ""}`;
    throw new UsageError(`--${name} must be ${kind} ${range}, got "${raw}"`);
  }
  return n;
}
