/**
 * `rtbench calibrate [flags]`: each installed load generator's ceiling on
 * this machine ({@linkcode measureGeneratorCeilings}), printed as a table or as JSON.
 *
 * Exit codes: 0 every generator measured; 1 one failed; 2 bad input.
 *
 * @module
 */

import { runEntry, stopAllGroups, UsageError } from "../platform/mod.ts";
import { formatCount } from "../report/mod.ts";
import { builtinLoadGenerators, type LoadGenerator, type LoadSettings, wrkCheckingGenerator } from "../drivers/mod.ts";
import { formatCalibration, measureGeneratorCeilings } from "../selfcheck/mod.ts";
import { numberFlag, strictFlags } from "./_flags.ts";
import { namingFlags } from "./_flag_names.ts";

/** The generators `--load-generator` names, each installed; throws a {@linkcode UsageError} naming the flag. */
async function namedGenerators(list: string): Promise<LoadGenerator[]> {
  const all = [...builtinLoadGenerators, wrkCheckingGenerator];
  const generators: LoadGenerator[] = [];
  for (const name of list.split(",").map((s) => s.trim()).filter(Boolean)) {
    const g = all.find((g) => g.name === name);
    if (!g) {
      throw new UsageError(
        `--load-generator: unknown load generator "${name}" (allowed: ${all.map((g) => g.name).join(", ")})`,
      );
    }
    if (!(await g.available())) throw new UsageError(`--load-generator: ${name} is not installed`);
    generators.push(g);
  }
  return generators;
}

async function main(args: string[], signal: AbortSignal): Promise<number> {
  const flags = strictFlags(args, {
    string: ["runtime", "duration", "warmup", "connections", "load-generator"],
    boolean: ["json"],
    alias: { r: "runtime" },
  });
  if (flags.help) {
    console.log([
      "Usage: rtbench calibrate [flags]",
      "",
      "  --runtime <name>          runtime serving http-json (default: deno, the fastest)",
      "  --duration <s>            measured seconds per generator (default: 3)",
      "  --warmup <s>              warm-up seconds (default: 1)",
      "  --connections <n>         connections (default: 100)",
      "  --load-generator <list>   generators to measure (default: every installed one, and wrk+check)",
      "  --json                    print the calibration as JSON on stdout",
      "  --debug                   show stack traces",
      "  --help, -h                this help",
    ].join("\n"));
    return 0;
  }
  const settings: Partial<LoadSettings> = {};
  const number = (flag: string, key: keyof LoadSettings, integer: boolean, zero = false) => {
    const n = numberFlag(flags, flag, { integer, min: 0, exclusive: !zero, max: integer ? 100_000 : 3600 });
    if (n !== undefined) (settings as Record<string, number>)[key] = n;
  };
  try {
    number("duration", "durationSec", false);
    number("warmup", "warmupSec", false, true);
    number("connections", "connections", true);
    const list = flags["load-generator"];
    const generators = list === undefined ? undefined : await namedGenerators(String(list));
    const result = await measureGeneratorCeilings({
      runtime: flags.runtime as string | undefined,
      settings,
      generators,
      signal,
      onRow: (r) => console.error(`✓ ${r.generator}: ${formatCount(r.requestsPerSecond)}/s`),
    });
    if (flags.json) console.log(JSON.stringify(result, null, 2));
    else console.log(formatCalibration(result));
    return result.rows.some((r) => r.error) ? 1 : 0;
  } finally {
    await stopAllGroups();
  }
}

/**
 * Runs `calibrate` with `args` as a program, through the one lifecycle of a
 * command that starts processes (`runEntry`): prints, and exits with its code.
 *
 * @example
 * ```ts ignore
 * import { entry } from "./calibrate.ts";
 * await entry(Deno.args);
 * ```
 */
export function entry(args: string[]): Promise<never> {
  return runEntry("rtbench calibrate", args, namingFlags(({ signal }) => main(args, signal)));
}

if (import.meta.main) await entry(Deno.args);
