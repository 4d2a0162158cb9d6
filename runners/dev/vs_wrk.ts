/**
 * `deno run -A runners/dev/vs_wrk.ts [flags]`: does rtbench's load engine, checking every
 * response, measure what plain `wrk -t1 -c100` measures, taking turns with it
 * on the same server? ({@linkcode vsWrk})
 *
 * Exit codes: 0 measured; 1 failed; 2 bad input.
 *
 * @module
 */

import { parseRuntimeSpecs } from "../../adapters/mod.ts";
import { allowedCpus, runEntry, splitCpus, UsageError, which } from "../platform/mod.ts";
import { formatCount } from "../report/mod.ts";
import { formatVsWrk, vsWrk } from "../selfcheck/mod.ts";
import { namingFlags, numberFlag, strictFlags } from "../cli/mod.ts";

const HELP = `Usage: deno run -A runners/dev/vs_wrk.ts [flags]

  --runtime <list>     runtimes (default: deno,node,bun)
  --rounds <n>         rounds, each a fresh server on which the engine and wrk
                       take turns ABBA, first side alternating (default: 5)
  --duration <s>       measured seconds per turn, at least 1 (default: 3)
  --warmup <s>         warm-up seconds before each turn (default: 1)
  --connections <n>    connections (default: 100)
  --locust             Locust takes turns too (one worker on the client CPU):
                       its ceiling per core beside wrk's and the engine's
  --debug              show stack traces
  --help, -h           this help`;

async function main(args: string[], signal: AbortSignal): Promise<number> {
  const flags = strictFlags(args, {
    string: ["runtime", "rounds", "duration", "warmup", "connections"],
    boolean: ["locust"],
    default: { runtime: "deno,node,bun", rounds: "5", duration: "3", warmup: "1", connections: "100" },
  });
  if (flags.help) {
    console.log(HELP);
    return 0;
  }
  const rounds = numberFlag(flags, "rounds", { integer: true, min: 1, max: 1000 })!;
  const durationSec = numberFlag(flags, "duration", { min: 1, max: 3600 })!;
  const warmupSec = numberFlag(flags, "warmup", { min: 0, max: 3600 })!;
  const connections = numberFlag(flags, "connections", { integer: true, min: 1, max: 100_000 })!;
  if (!which("wrk")) throw new UsageError("wrk is not installed (apt-get install wrk)");
  const runtimes = parseRuntimeSpecs(String(flags.runtime)).map((s) => s.requested);
  const cpus = splitCpus(await allowedCpus());
  console.error(
    `vs-wrk · http-json · ${rounds} rounds × ${flags.locust ? "6 turns (ABCCBA)" : "4 turns (ABBA)"} × ` +
      `${durationSec} s after ${warmupSec} s warm-up · ` +
      `server cpu ${cpus.server ?? "any"}, client cpu ${cpus.client ?? "any"} · load average ` +
      Deno.loadavg().map((n) => n.toFixed(2)).join(" "),
  );
  const result = await vsWrk({
    runtimes,
    rounds,
    durationSec,
    warmupSec,
    connections,
    locust: flags.locust === true,
    signal,
    onRound: (round, runtime, ours, wrk) =>
      console.error(`  round ${round + 1} ${runtime}: rtbench ${formatCount(ours)}/s, wrk ${formatCount(wrk)}/s`),
  });
  console.log(formatVsWrk(result));
  return 0;
}

if (import.meta.main) await runEntry("rtbench vs-wrk", Deno.args, namingFlags(({ signal }) => main(Deno.args, signal)));
