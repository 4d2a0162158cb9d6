/**
 * `deno run -A runners/dev/reaper_cost.ts [--groups 20] [--messages 20000] [--idle 3]`: what
 * the children reaper costs ({@linkcode reaperCost}).
 *
 * Exit codes: 0 measured and nothing left behind; 1 something was left or it failed; 2 bad input.
 *
 * @module
 */

import { runEntry } from "../platform/mod.ts";
import { formatReaperCost, reaperCost } from "../selfcheck/mod.ts";
import { namingFlags, numberFlag, strictFlags } from "../cli/mod.ts";

const HELP = `Usage: deno run -A runners/dev/reaper_cost.ts [flags]

  --groups <n>     process groups left to the reaper when the harness is gone, 0 to 500 (default: 20)
  --messages <n>   ledger entries written, timed, 0 to 10000000 (default: 20000)
  --idle <s>       seconds the reaper is timed while the harness lives, 0 to 600 (default: 3)
  --debug          show stack traces
  --help, -h       this help`;

async function main(args: string[]): Promise<number> {
  const flags = strictFlags(args, { string: ["groups", "messages", "idle"] });
  if (flags.help) {
    console.log(HELP);
    return 0;
  }
  const cost = await reaperCost({
    groups: numberFlag(flags, "groups", { integer: true, min: 0, max: 500 }) ?? 20,
    messages: numberFlag(flags, "messages", { integer: true, min: 0, max: 10_000_000 }) ?? 20_000,
    idleSec: numberFlag(flags, "idle", { min: 0, max: 600 }) ?? 3,
  });
  console.log(formatReaperCost(cost));
  console.log(
    "measure on an idle machine, or quote the load average:",
    Deno.loadavg().map((n) => n.toFixed(2)).join(" "),
  );
  return cost.processesLeft === 0 && !cost.directoryLeft ? 0 : 1;
}

// The reaper is started by main itself, to time it.
if (import.meta.main) {
  await runEntry("rtbench reaper-cost", Deno.args, namingFlags(() => main(Deno.args)), { spawns: false });
}
