/**
 * Strict flag parsing for rtbench's smaller commands (`calibrate`, `vs-wrk`,
 * `compare-startup`, `ws-ceiling`): an unknown flag, a stray argument or a
 * bad number is a {@linkcode UsageError} naming the flag, never ignored.
 *
 * @module
 */

import { parseArgs } from "@std/cli/parse-args";
import { UsageError } from "../platform/errors.ts";

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
}

/** Parsed flags: values by name; `_` holds no stray arguments (they are refused). */
export type Flags = Record<string, string | boolean | undefined>;

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
  const unknown: string[] = [];
  const strings = [...(spec.string ?? [])];
  const flags = parseArgs([...args], {
    string: strings,
    boolean: [...(spec.boolean ?? []), "help", "debug"],
    alias: { h: "help", ...spec.alias },
    default: { ...spec.default },
    unknown: (arg: string) => {
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
    const value = flags[name];
    if (Array.isArray(value)) throw new UsageError(`--${name} given twice`);
    if (typeof value === "string" && value.trim() === "") throw new UsageError(`--${name} needs a value`);
  }
  return flags as unknown as Flags;
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
