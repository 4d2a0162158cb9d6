/**
 * `deno task vs-wrk`: does rtbench report what plain `wrk -t1 -c100` measures?
 * For each runtime and round, `deno task bench --workload http-json` (one run)
 * and a plain wrk against a fresh server of the same runtime, on the same
 * pinned CPUs with the same warm-up, alternating which goes first; then the
 * medians and their ratio. Last, `--load-generator autocannon` on Deno, to
 * show whether it is flagged `client-bound`.
 *
 * Quote its figures with the load average it prints: on a shared machine the
 * ratio is the stable part.
 *
 * @module
 */

import { runEntry } from "../platform/entry.ts";
import { numberFlag, strictFlags } from "../cli/_flags.ts";
import { UsageError } from "../platform/errors.ts";
import { builtinAdapters, parseRuntimeSpecs, resolveRuntime } from "../../adapters/mod.ts";
import { httpJson } from "../../workloads/http_json.ts";
import { runCommand, stopAllGroups, which } from "../platform/process.ts";
import { allowedCpus, splitCpus } from "../platform/cpus.ts";
import { alignTable, formatCount } from "../report/format.ts";
import type { BenchResult, CpuSets } from "../schema/result.ts";
import { startServer } from "../kinds/server.ts";
import { median } from "../stats/summary.ts";
import { stageServer } from "../platform/workspace.ts";
import { makeTempDir, removeTemp } from "../platform/temp.ts";

const ROOT = new URL("../..", import.meta.url).pathname;
const BENCH_PERMISSIONS = ["--allow-read", "--allow-write", "--allow-net", "--allow-env", "--allow-run", "--allow-sys"];

interface Options {
  signal: AbortSignal;
  durationSec: number;
  warmupSec: number;
  connections: number;
}

/** One `deno task bench` run; returns the record's median requests/s and its warning codes. */
async function rtbench(runtime: string, o: Options, generator: string): Promise<{ rps: number; warnings: string[] }> {
  const dir = await makeTempDir({ prefix: "rtbench-vs-wrk-" });
  try {
    const out = `${dir}/r.json`;
    const args = [
      "run",
      ...BENCH_PERMISSIONS,
      `${ROOT}runners/cli/bench.ts`,
      "--workload=http-json",
      `--runtime=${runtime}`,
      `--duration=${o.durationSec}`,
      `--warmup=${o.warmupSec}`,
      `--connections=${o.connections}`,
      "--runs=1",
      `--load-generator=${generator}`,
      `--out=${out}`,
      "--quiet",
    ];
    const run = await runCommand([Deno.execPath(), ...args], {
      timeoutMs: 300_000,
      env: { NO_COLOR: "1" },
      signal: o.signal,
    });
    if (!run.success) throw new Error(`deno task bench failed: ${run.stderr.trim().split("\n").slice(-2).join(" ")}`);
    const result = JSON.parse(await Deno.readTextFile(out)) as BenchResult;
    const record = result.records[0];
    const rps = record.summary.requestsPerSecond?.median;
    if (record.status !== "completed" || rps === undefined) throw new Error(`${runtime}: ${record.error?.message}`);
    return { rps, warnings: record.warnings.map((w) => w.code) };
  } finally {
    await removeTemp(dir);
  }
}

/** Plain `wrk -t1 -c<n>` against a fresh pinned server, after the same warm-up. */
async function plainWrk(runtime: string, o: Options, cpus: CpuSets): Promise<number> {
  const [spec] = parseRuntimeSpecs(runtime);
  const rt = await resolveRuntime(spec, { adapters: builtinAdapters });
  const source = httpJson.server(rt.name, "default");
  if ("skip" in source) throw new Error(source.skip);
  const dir = await makeTempDir({ prefix: "rtbench-vs-wrk-" });
  try {
    const file = await stageServer(source.entry, dir);
    const server = await startServer({
      runtime: rt,
      file,
      cwd: dir,
      cpus: cpus.server,
      timeoutMs: 30_000,
      signal: o.signal,
    });
    try {
      const wrk = async (sec: number) => {
        const out = await runCommand(
          ["wrk", "-t1", `-c${o.connections}`, `-d${Math.max(1, Math.ceil(sec))}s`, `${server.baseUrl}/`],
          { cpus: cpus.client, timeoutMs: (sec + 60) * 1000, signal: o.signal },
        );
        const rps = /Requests\/sec:\s+([\d.]+)/.exec(out.stdout)?.[1];
        if (!out.success || !rps) throw new Error(`wrk failed: ${out.stderr.trim() || out.stdout.trim()}`);
        return Number(rps);
      };
      if (o.warmupSec > 0) await wrk(o.warmupSec);
      return await wrk(o.durationSec);
    } finally {
      await server.stop();
    }
  } finally {
    await removeTemp(dir);
  }
}

function load(): string {
  try {
    return Deno.loadavg().map((n) => n.toFixed(2)).join(" ");
  } catch {
    return "unknown";
  }
}

const HELP = `Usage: deno task vs-wrk [flags]

  --runtime <list>     runtimes (default: deno,node,bun)
  --rounds <n>         alternating rounds (default: 3)
  --duration <s>       measured seconds per run, at least 1 (default: 3)
  --warmup <s>         warm-up seconds (default: 1)
  --connections <n>    connections (default: 100)
  --debug              show stack traces`;

async function main(args: string[], signal: AbortSignal): Promise<number> {
  const flags = strictFlags(args, {
    string: ["runtime", "rounds", "duration", "warmup", "connections"],
    default: { runtime: "deno,node,bun", rounds: "3", duration: "3", warmup: "1", connections: "100" },
  });
  if (flags.help) {
    console.log(HELP);
    return 0;
  }
  const rounds = numberFlag(flags, "rounds", { integer: true, min: 1, max: 1000 })!;
  const o: Options = {
    signal,
    durationSec: numberFlag(flags, "duration", { min: 1, max: 3600 })!,
    warmupSec: numberFlag(flags, "warmup", { min: 0, max: 3600 })!,
    connections: numberFlag(flags, "connections", { integer: true, min: 1, max: 100_000 })!,
  };
  if (!which("wrk")) throw new UsageError("wrk is not installed (apt-get install wrk)");
  const runtimes = parseRuntimeSpecs(String(flags.runtime)).map((s) => s.requested);
  const cpus = splitCpus(await allowedCpus());
  console.error(
    `vs-wrk · http-json · ${rounds} rounds × ${o.durationSec} s after ${o.warmupSec} s warm-up · ` +
      `server cpu ${cpus.server ?? "any"}, client cpu ${cpus.client ?? "any"} · load average ${load()}`,
  );
  const seen = new Map<string, { rtbench: number[]; wrk: number[] }>(
    runtimes.map((r) => [r, { rtbench: [], wrk: [] }]),
  );
  try {
    for (let round = 0; round < rounds; round++) {
      for (const runtime of runtimes) {
        signal.throwIfAborted();
        const s = seen.get(runtime)!;
        // Alternate the order so that drift on a shared machine does not favour one side.
        const steps = [
          async () => s.rtbench.push((await rtbench(runtime, o, "wrk")).rps),
          async () => s.wrk.push(await plainWrk(runtime, o, cpus)),
        ];
        if (round % 2 === 1) steps.reverse();
        for (const step of steps) await step();
        console.error(
          `  round ${round + 1} ${runtime}: rtbench ${formatCount(s.rtbench.at(-1)!)}/s, wrk ${
            formatCount(s.wrk.at(-1)!)
          }/s`,
        );
      }
    }
    const rows = [["runtime", "deno task bench (median)", "wrk -t1 (median)", "ratio", "rounds (rtbench / wrk)"]];
    for (const [runtime, s] of seen) {
      const a = median(s.rtbench);
      const b = median(s.wrk);
      rows.push([
        runtime,
        `${formatCount(a)}/s`,
        `${formatCount(b)}/s`,
        (a / b).toFixed(3),
        s.rtbench.map((v, i) => `${formatCount(v)}/${formatCount(s.wrk[i])}`).join(" "),
      ]);
    }
    console.log(alignTable(rows, [1, 2, 3]));
    const ac = await rtbench("deno", o, "autocannon");
    console.log(
      `\n--load-generator autocannon on deno: ${formatCount(ac.rps)}/s, warnings: ${
        ac.warnings.join(", ") || "none"
      } (client-bound ${ac.warnings.includes("client-bound") ? "flagged" : "NOT flagged"})`,
    );
    console.log(`load average at the end: ${load()}`);
    return 0;
  } finally {
    await stopAllGroups();
  }
}

if (import.meta.main) await runEntry("rtbench vs-wrk", Deno.args, ({ signal }) => main(Deno.args, signal));
