/**
 * `deno run -A runners/dev/ws_ceiling.ts [flags]`: how fast the WebSocket driver itself can go
 * ({@linkcode probeCeiling}).
 *
 * Exit codes: 0 measured; 1 failed; 2 bad input.
 *
 * @module
 */

import { parseRuntimeSpecs } from "../../adapters/mod.ts";
import { runEntry } from "../platform/mod.ts";
import { formatCeiling, probeCeiling } from "../selfcheck/mod.ts";
import { namingFlags, numberFlag, strictFlags } from "../cli/mod.ts";

const HELP = `Usage: deno run -A runners/dev/ws_ceiling.ts [flags]

  --runtime <list>       servers to try (default: deno,node,bun)
  --duration <s>         measured seconds per configuration (default: 3)
  --connections <n>      sockets (default: 100)
  --message-size <n>     bytes per message, at least 8 (default: 64)
  --debug                show stack traces
  --help, -h             this help`;

async function main(args: string[], signal: AbortSignal): Promise<number> {
  const flags = strictFlags(args, {
    string: ["runtime", "duration", "connections", "message-size"],
    default: { runtime: "deno,node,bun", duration: "3", connections: "100", "message-size": "64" },
  });
  if (flags.help) {
    console.log(HELP);
    return 0;
  }
  const durationSec = numberFlag(flags, "duration", { min: 0, exclusive: true, max: 3600 })!;
  const connections = numberFlag(flags, "connections", { integer: true, min: 1, max: 100_000 })!;
  const messageSize = numberFlag(flags, "message-size", { integer: true, min: 8, max: 16 << 20 })!;
  parseRuntimeSpecs(String(flags.runtime));
  const rows = await probeCeiling({
    runtimes: String(flags.runtime),
    durationSec,
    connections,
    messageSize,
    log: (line) => console.error(line),
    signal,
  });
  console.log(formatCeiling(rows, connections, messageSize));
  return 0;
}

if (import.meta.main) {
  await runEntry(
    "rtbench ws-ceiling",
    Deno.args,
    namingFlags(({ signal }) => main(Deno.args, signal)),
  );
}
