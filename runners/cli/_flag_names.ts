/**
 * The flags of `run()`'s request: which flag sets which field, and the
 * library's errors about a field ({@linkcode RequestError}) said with the
 * flag's name. For the commands that hand their flags to the library.
 *
 * @module
 */

import { RequestError, UsageError } from "../base/mod.ts";
import type { RunSettings } from "../../workloads/mod.ts";

/** The flag that sets each run setting (`settings.durationSec` is `--duration`). */
export const SETTING_FLAGS: Readonly<Partial<Record<keyof RunSettings, string>>> = {
  durationSec: "--duration",
  warmupSec: "--warmup",
  connections: "--connections",
  runs: "--runs",
  pipelining: "--pipelining",
  keepAlive: "--keep-alive",
  requestTimeoutSec: "--timeout",
  startTimeoutSec: "--start-timeout",
  minRuns: "--min-runs",
  maxRuns: "--max-runs",
  ciTargetPercent: "--ci-target",
  sampleIntervalMs: "--sample-interval",
  rate: "--rate",
  phases: "--phases",
  arrival: "--arrival",
  sweep: "--sweep",
  sweepSteps: "--sweep-steps",
  sloP99Ms: "--slo-p99",
  serverCpus: "--server-cpus",
  cpuRate: "--cpu-rate",
  idleConnections: "--idle-connections",
};

/** The flag that sets each other field of `run()`'s request. */
const FIELD_FLAGS: Readonly<Record<string, string>> = {
  workloads: "--workload",
  runtimes: "--runtime",
  variants: "--variant",
  profile: "--profile",
  loadGenerator: "--load-generator",
  host: "--host",
  port: "--port",
  order: "--order",
  seed: "--seed",
  resume: "--resume",
  last: "--last",
  aa: "--aa",
  pairing: "--pairing",
  "hosts.server": "--server-host",
  "hosts.clients": "--client-host",
  "hosts.db": "--db-host",
  "hosts.sshConfig": "--ssh-config",
  passEnv: "--pass-env",
  ...Object.fromEntries(Object.entries(SETTING_FLAGS).map(([key, flag]) => [`settings.${key}`, flag])),
};

/**
 * The flag that sets a field of `run()`'s request: `settings.durationSec` →
 * `--duration`, `options.bcrypt-cost` → `--bcrypt-cost`; a field without a
 * flag is named as it is.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { flagOf } from "./_flag_names.ts";
 *
 * assertEquals([flagOf("settings.durationSec"), flagOf("options.bcrypt-cost")], ["--duration", "--bcrypt-cost"]);
 * ```
 */
export function flagOf(field: string): string {
  return FIELD_FLAGS[field] ?? (field.startsWith("options.") ? `--${field.slice("options.".length)}` : field);
}

/**
 * The error as the command line says it: a {@linkcode RequestError} (which
 * names the request's fields) becomes a {@linkcode UsageError} naming the
 * flags, and the flag parser's bad input (`_usage.ts`) the library's
 * {@linkcode UsageError}, which `runEntry` exits 2 on; any other error is
 * returned as it is.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { RequestError } from "../platform/mod.ts";
 * import { withFlagNames } from "./_flag_names.ts";
 *
 * const error = withFlagNames(new RequestError("settings.runs", "must be a whole number ≥ 1, got 0")) as Error;
 * assertEquals(error.message, "--runs must be a whole number ≥ 1, got 0");
 * ```
 */
export function withFlagNames(error: unknown): unknown {
  if (error instanceof RequestError) return new UsageError(error.describe(flagOf), { cause: error });
  return error;
}

/**
 * The body of a command, with every {@linkcode RequestError} it throws named
 * by flags ({@linkcode withFlagNames}): for the commands that hand their
 * flags to the library.
 *
 * @example
 * ```ts ignore
 * import { runEntry } from "../platform/entry.ts";
 * import { namingFlags } from "./_flag_names.ts";
 * await runEntry("rtbench vs-wrk", Deno.args, namingFlags(({ signal }) => main(Deno.args, signal)));
 * ```
 */
export function namingFlags<C>(body: (ctx: C) => Promise<number>): (ctx: C) => Promise<number> {
  return async (ctx) => {
    try {
      return await body(ctx);
    } catch (error) {
      throw withFlagNames(error);
    }
  };
}
