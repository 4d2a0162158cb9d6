/**
 * `deno run -A runners/dev/order_drift.ts [flags]`: how much the per-run ratio of two
 * runtimes varies with runs interleaved (`--order rotate`) against one
 * runtime at a time (`--order blocked`) on this machine ({@linkcode orderDrift}).
 *
 * Exit codes: 0 measured; 1 failed; 2 bad input.
 *
 * @module
 */

import { parseRuntimeSpecs } from "../../adapters/mod.ts";
import { runEntry, stopAllGroups, UsageError } from "../platform/mod.ts";
import { formatOrderDrift, orderDrift } from "../selfcheck/mod.ts";
import { namingFlags, numberFlag, strictFlags } from "../cli/mod.ts";

const HELP = `Usage: deno run -A runners/dev/order_drift.ts [flags]

  --runtime <a,b>    two runtimes; the ratio is a's requests/s over b's (default: deno,node)
  --runs <n>         runs per suite, 2 to 100 (default: 5)
  --repeats <n>      suites per order, alternating which goes first (default: 2)
  --duration <s>     measured seconds per run (default: 3)
  --warmup <s>       warm-up seconds per run (default: 1)
  --debug            show stack traces
  --help, -h         this help`;

async function main(args: string[], signal: AbortSignal): Promise<number> {
  const flags = strictFlags(args, {
    string: ["runtime", "runs", "repeats", "duration", "warmup"],
    default: { runtime: "deno,node", runs: "5", repeats: "2", duration: "3", warmup: "1" },
  });
  if (flags.help) {
    console.log(HELP);
    return 0;
  }
  const specs = parseRuntimeSpecs(String(flags.runtime)).map((s) => s.requested);
  if (specs.length !== 2) throw new UsageError(`--runtime needs exactly two runtimes, got ${specs.length}`);
  const runtimes = specs as [string, string];
  const options = {
    runtimes,
    runs: numberFlag(flags, "runs", { integer: true, min: 2, max: 100 })!,
    repeats: numberFlag(flags, "repeats", { integer: true, min: 1, max: 100 })!,
    durationSec: numberFlag(flags, "duration", { min: 0, exclusive: true, max: 3600 })!,
    warmupSec: numberFlag(flags, "warmup", { min: 0, max: 3600 })!,
    signal,
  };
  console.error(
    `order-drift · http-json · ${runtimes.join(" vs ")} · ${options.repeats} suites per order × ${options.runs} runs ` +
      `× ${options.durationSec} s · load average ${Deno.loadavg().map((n) => n.toFixed(2)).join(" ")}`,
  );
  try {
    const rows = await orderDrift({
      ...options,
      onSuite: (order, ratios) => console.error(`  ${order}: ${ratios.map((r) => r.toFixed(3)).join(" ")}`),
    });
    console.log(formatOrderDrift(rows, runtimes));
    return 0;
  } finally {
    await stopAllGroups();
  }
}

if (import.meta.main) {
  await runEntry(
    "rtbench order-drift",
    Deno.args,
    namingFlags(({ signal }) => main(Deno.args, signal)),
  );
}
