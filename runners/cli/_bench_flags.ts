// The flags of `deno task bench`: one table gives each flag's value, meaning and default, and `--help` is printed
// from it (the Flags table of docs/reference.md states the same defaults; a test holds them together).

import { builtinAdapters } from "../../adapters/mod.ts";
import type { Workload } from "../../workloads/mod.ts";
import { builtinLoadGenerators } from "../drivers/mod.ts";
import { EXPORT_FORMATS } from "../report/mod.ts";
import { PROFILES, RUN_ORDERS } from "../suite/mod.ts";
import { SETTING_FLAGS } from "./_flag_names.ts";

/** One flag of `bench`: its name (and short name), its value, what it does and its default, as the docs say it. */
export interface BenchFlag {
  /** The flag, with dashes. */
  readonly flag: string;
  /** A one-letter short name, with its dash. */
  readonly alias?: string;
  /** What its value is (`<s>`); absent for a flag without a value. */
  readonly value?: string;
  /** What it does. */
  readonly meaning: string;
  /** Its default in words; absent when it has none (off, or nothing). */
  readonly default?: string;
  /** Whether it may be given more than once. */
  readonly repeatable?: boolean;
}

const q = PROFILES.quick;
const f = PROFILES.full;
const generators = ["auto", ...builtinLoadGenerators.map((g) => g.name)];

/** Every flag of `bench` but the workloads' own options, in `--help` order. */
export const BENCH_FLAGS: readonly BenchFlag[] = [
  { flag: "--workload", alias: "-w", value: "<list>", meaning: "workloads to run, comma-separated", default: "all" },
  {
    flag: "--runtime",
    alias: "-r",
    value: "<list>",
    meaning: `runtimes, comma-separated (${builtinAdapters.map((a) => a.name).join(", ")}): a name alone is the ` +
      "release a user would deploy (node: newest of the Active LTS line; deno, bun: latest), name@version or " +
      "name@range a release from npm, name@system the binary on this machine",
    default: "deno,node,bun",
  },
  {
    flag: "--last",
    value: "<n>",
    meaning: "each runtime of --runtime becomes its last n releases on npm (node: majors; deno, bun: minors)",
  },
  {
    flag: "--variant",
    value: "<list>",
    meaning: "only these variants, optional ones included",
    default: "all but the optional ones, which --list marks",
  },
  { flag: "--profile", value: "<name>", meaning: "quick or full: defaults for the settings below", default: "quick" },
  {
    flag: "--duration",
    value: "<s>",
    meaning: "measured seconds per run",
    default: `quick ${q.durationSec}, full ${f.durationSec}`,
  },
  {
    flag: "--warmup",
    value: "<s>",
    meaning: "warm-up seconds before each run",
    default: `quick ${q.warmupSec}, full ${f.warmupSec}`,
  },
  { flag: "--connections", value: "<n>", meaning: "concurrent connections", default: String(q.connections) },
  {
    flag: "--runs",
    value: "<n>",
    meaning: "measured runs, each with a fresh server",
    default: `quick ${q.runs}, full ${f.runs}`,
  },
  { flag: "--pipelining", value: "<n>", meaning: "requests in flight per connection", default: String(q.pipelining) },
  {
    flag: "--keep-alive",
    value: "<on|off>",
    meaning: "off: a new connection per request, sent with Connection: close; connect time counted apart (HTTP)",
    default: q.keepAlive ? "on" : "off",
  },
  {
    flag: "--timeout",
    value: "<s>",
    meaning: "a request taking longer is a timeout",
    default: String(q.requestTimeoutSec),
  },
  {
    flag: "--start-timeout",
    value: "<s>",
    meaning: "seconds a server may take to accept connections",
    default: `quick ${q.startTimeoutSec}, full ${f.startTimeoutSec}`,
  },
  {
    flag: "--min-runs",
    value: "<n>",
    meaning: "adaptive runs: at least n, more until the 95% CI is within --ci-target",
    default: "3 when --max-runs is given",
  },
  { flag: "--max-runs", value: "<n>", meaning: "adaptive runs: at most n", default: "10 when --min-runs is given" },
  {
    flag: "--ci-target",
    value: "<%>",
    meaning: "adaptive runs and duet rounds: stop when the 95% CI half-width is below this % of the mean",
    default: "3",
  },
  { flag: "--load-generator", value: "<name>", meaning: generators.join(", "), default: "auto" },
  {
    flag: "--sample-interval",
    value: "<ms>",
    meaning: "milliseconds between resource samples of server and client",
    default: "250",
  },
  {
    flag: "--rate",
    value: "<n>",
    meaning: "open model: requests (ws: messages) per second on a fixed schedule; latency from when each was due",
  },
  { flag: "--phases", value: "<list>", meaning: 'open model: constant and ramping rates, "10s@1000,30s@1000->8000"' },
  { flag: "--arrival", value: "<name>", meaning: "open model: uniform or poisson arrivals", default: "uniform" },
  { flag: "--sweep", meaning: "latency-throughput sweep: a closed-model peak, then rates from 10% to 110% of it" },
  { flag: "--sweep-steps", value: "<n>", meaning: "rates of the sweep", default: "10" },
  {
    flag: "--slo-p99",
    value: "<ms>",
    meaning: "the sweep's knee: highest rate whose p99 stays at or under this",
    default: "50",
  },
  {
    flag: "--cpu-rate",
    value: "<n>",
    meaning: "after each run, a window at n requests/s on the same server counting its CPU time per request (0: none)",
    default: "http-json, ws 20000 (keep-alive off: half the slowest first-round rate); others 0",
  },
  {
    flag: "--idle-connections",
    value: "<n>",
    meaning: "after a record's first run, n idle connections open: the server's memory per connection (0: none)",
    default: "http-json, ws 1000; others 0",
  },
  {
    flag: "--server-cpus",
    value: "<n|all>",
    meaning: "CPUs for the server, the rest for the load generator; each runtime serves on all of them its own way",
    default: "half the CPUs, one process",
  },
  { flag: "--port", value: "<n>", meaning: "port every server listens on", default: "a free port per server" },
  {
    flag: "--host",
    value: "<address>",
    meaning: "interface servers bind and the load goes through (loopback only by default)",
    default: "127.0.0.1",
  },
  {
    flag: "--workload-file",
    value: "<path>",
    meaning: "load the workloads a module exports; without --workload, run only those",
    repeatable: true,
  },
  {
    flag: "--server-host",
    value: "<host>",
    meaning: "run the servers on this machine, [user@]host[:port], over ssh",
    default: "this machine",
  },
  {
    flag: "--client-host",
    value: "<host>",
    meaning: "run the load engine on this machine (they share each run)",
    default: "this machine",
    repeatable: true,
  },
  {
    flag: "--db-host",
    value: "<host>",
    meaning: "run the postgres workload's database on this machine",
    default: "this machine",
  },
  {
    flag: "--ssh-config",
    value: "<file>",
    meaning: "ssh configuration file instead of your own (ssh -F)",
    default: "~/.ssh/config",
  },
  {
    flag: "--pass-env",
    value: "<names>",
    meaning: "keep these variables of your environment for every process (comma-separated)",
    default: "PATH, HOME, TMPDIR, locale only",
    repeatable: true,
  },
  {
    flag: "--order",
    value: "<name>",
    meaning: `order of runtimes within each round: ${RUN_ORDERS.join(", ")}`,
    default: "rotate",
  },
  {
    flag: "--seed",
    value: "<n>",
    meaning: "seed of the shuffle order (a seed alone means --order shuffle)",
    default: "drawn at random, recorded",
  },
  {
    flag: "--resume",
    value: "<file>",
    meaning: "continue the suite in this result file: keep its done records and finished runs, measure the rest",
  },
  { flag: "--history", value: "<dir>", meaning: "also keep the result in this directory (see deno task trend)" },
  {
    flag: "--fail-on-regression",
    value: "<pct>",
    meaning: "with --history: exit 1 when a figure is significantly worse than in the last comparable result by > pct%",
  },
  {
    flag: "--noise-floor",
    value: "<file>",
    meaning: "with --fail-on-regression: an A/A result; a change smaller than its floor is not called",
  },
  {
    flag: "--aa",
    meaning: "A/A run: the one --runtime measured as two arms, interleaved; the report prints the noise floor",
  },
  {
    flag: "--pairing",
    value: "<mode>",
    meaning: "pairing of CPU per request at --cpu-rate: duet (two servers at once on one CPU, same windows), or rounds",
    default: "duet",
  },
  { flag: "--format", value: "<name>", meaning: `report: ${EXPORT_FORMATS.join(", ")}`, default: "table" },
  {
    flag: "--out",
    value: "<file>",
    meaning: "result file (with --format other than json, the report; the result goes beside it as <name>.json)",
    default: "results/rtbench-<time>.json",
  },
  { flag: "--json", meaning: "also print the result JSON on stdout (tables go to stderr)" },
  { flag: "--list", meaning: "list workloads (optional variants marked) and runtimes, then exit" },
  { flag: "--quiet", meaning: "no progress display" },
  { flag: "--debug", meaning: "show stack traces" },
  { flag: "--version", meaning: "print rtbench's version" },
  { flag: "--help", alias: "-h", meaning: "this help" },
];

/** The flags that set a run setting (what `--resume` takes from the file when none is given), without dashes. */
export const SETTING_FLAG_NAMES: readonly string[] = Object.values(SETTING_FLAGS).map((flag) => flag!.slice(2));

/** Flags that take a value, without dashes. */
export const VALUE_FLAGS: readonly string[] = BENCH_FLAGS.filter((b) => b.value).map((b) => b.flag.slice(2));

/** Flags without a value, without dashes (`help` is every command's own). */
export const BOOLEAN_FLAGS: readonly string[] = BENCH_FLAGS.filter((b) => !b.value && b.flag !== "--help")
  .map((b) => b.flag.slice(2));

/** Flags that may be given more than once, without dashes (their values are joined with commas). */
export const REPEATABLE_FLAGS: readonly string[] = ["workload", "runtime", "workload-file", "client-host", "pass-env"];

/** `deno task bench --help`: the table above, then the workloads' own options. */
export function helpText(workloads: readonly Workload[]): string {
  // An option several workloads share (for example --warmup-runs) is listed once, naming them all.
  const owners = new Map<string, BenchFlag & { workloads: string[] }>();
  for (const w of workloads) {
    for (const o of w.options ?? []) {
      const seen = owners.get(o.name) ??
        {
          flag: `--${o.name}`,
          value: `<${o.type}>`,
          meaning: o.description,
          ...(o.default !== undefined ? { default: String(o.default) } : {}),
          workloads: [],
        };
      seen.workloads.push(w.name);
      owners.set(o.name, seen);
    }
  }
  const options = [...owners.values()].map((o) => ({ ...o, meaning: `${o.meaning} (${o.workloads.join(", ")})` }));
  // The workloads' options go before the output flags.
  const outputs = BENCH_FLAGS.findIndex((b) => b.flag === "--format");
  const all = [...BENCH_FLAGS.slice(0, outputs), ...options, ...BENCH_FLAGS.slice(outputs)];
  const rows = all.map((b) => [
    `${b.flag}${b.alias ? `, ${b.alias}` : ""}${b.value ? ` ${b.value}` : ""}`,
    `${b.meaning}${b.repeatable ? " (repeatable)" : ""}${b.default !== undefined ? ` (default: ${b.default})` : ""}`,
  ]);
  const width = Math.max(...rows.map((r) => r[0].length));
  return [
    "rtbench: benchmark Node.js, Deno and Bun on the same verified workloads",
    "",
    "Usage: rtbench bench [flags]",
    "",
    ...rows.map(([flag, meaning]) => `  ${flag.padEnd(width)}  ${meaning}`),
    "",
    `Workloads: ${workloads.map((w) => w.name).join(", ")}.`,
    "Exit codes: 0 all completed, 1 a record errored or is invalid (or --fail-on-regression found a regression), " +
    "2 bad input, 130/143/129 interrupted by SIGINT/SIGTERM/SIGHUP (finished runs kept: --resume goes on).",
  ].join("\n");
}

/** `deno task bench --list`: every workload with its variants (optional ones marked), and every runtime. */
export async function listText(workloads: readonly Workload[]): Promise<string> {
  const lines = ["Workloads:"];
  for (const w of workloads) {
    lines.push(`  ${w.name.padEnd(12)} ${w.kind.padEnd(9)} ${w.description}`);
    for (const v of w.variants) {
      const when = v.optional
        ? " (optional: runs when named with --variant)"
        : v.inSuite === false
        ? ` (runs when --workload ${w.name} is named)`
        : "";
      lines.push(`  ${"".padEnd(12)} variant ${v.name}${when}: ${v.description}`);
    }
  }
  lines.push("", "Runtimes:");
  for (const a of builtinAdapters) {
    const found = await a.detect();
    const where = a.howToGet
      ? found ? `found: ${found}` : `not installed: ${a.howToGet}`
      : `from npm (${a.deployLine ? "newest of the Active LTS line" : "latest"}); @system: ${found ?? "not installed"}`;
    lines.push(`  ${a.name.padEnd(6)} ${a.description}; ${where}`);
  }
  return lines.join("\n");
}
