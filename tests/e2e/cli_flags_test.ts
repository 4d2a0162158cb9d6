// README walk: shows claims of docs/reference.md "Flags" and "Exit codes" (2): every bad flag value is one line naming the flag.
// Every bad flag exits 2 with one line naming the flag, and never a stack trace.
import { assert, assertEquals, assertMatch } from "@std/assert";
import { runCli } from "../_helpers.ts";
import { docSection } from "../_docs.ts";
import { builtinWorkloads } from "../../workloads/mod.ts";
import { planGroups } from "../../runners/suite/plan.ts";
import { PROFILES } from "../../runners/suite/settings.ts";
import { builtinLoadGenerators } from "../../runners/drivers/generators.ts";
import { parseCli } from "../../runners/cli/bench.ts";
import { restApi } from "../../workloads/rest_api.ts";

const cases: [string[], RegExp][] = [
  [["--workload", "nope"], /--workload: unknown workload "nope" \(allowed: .*http-json/],
  [["--duration", "-1"], /--duration must be a number > 0/],
  [["--duration=abc"], /--duration must be a number, got "abc"/],
  [["--duration"], /--duration needs a value/],
  [["--connections", "0"], /--connections must be a whole number ≥ 1/],
  [["--connections", "2.5"], /--connections must be a whole number/],
  [["--runs", "0"], /--runs must be a whole number ≥ 1/],
  [["--warmup", "-2"], /--warmup must be a number ≥ 0/],
  [["--frobnicate"], /Unknown flag --frobnicate \(see --help\)/],
  [["--runtime", "rhino"], /--runtime: unknown runtime "rhino" \(allowed: deno, node, bun, go, rust\)/],
  [["--runtime", "bun@;rm"], /--runtime: bad version/],
  [["--profile", "slow"], /--profile: unknown profile "slow" \(allowed: quick, full\)/],
  [["--variant", "turbo"], /--variant: unknown variant "turbo"/],
  [["stray"], /Unexpected argument "stray"/],
  [
    ["--out", "/dev/null/r.json", "--runtime", "deno"],
    /--out: cannot write \/dev\/null\/r.json \(a part of the path is a file, not a folder\)/,
  ],
  [
    ["--load-generator", "ab"],
    /--load-generator: unknown load generator "ab" \(allowed: auto, rtbench, wrk, bombardier/,
  ],
  [["--min-runs", "1"], /--min-runs must be a whole number ≥ 2/],
  [["--min-runs", "5", "--max-runs", "3"], /--max-runs must be ≥ --min-runs \(5\), got 3/],
  [["--runs", "3", "--max-runs", "5"], /--runs: give either a fixed --runs or --min-runs\/--max-runs/],
  [["--ci-target", "2"], /--ci-target needs --min-runs or --max-runs/],
  [["--sample-interval", "1"], /--sample-interval must be a number ≥ 10/],
  [["--order", "random"], /--order must be one of rotate, shuffle, blocked, got "random"/],
  [["--seed", "1.5"], /--seed must be a whole number from 0 to 4294967295, got 1.5/],
  [["--seed", "x"], /--seed must be a number, got "x"/],
  [["--order", "rotate", "--seed", "3"], /--seed orders runs only with --order shuffle, not rotate/],
];

for (const [args, message] of cases) {
  Deno.test(`bad input ${args.join(" ")} exits 2 with one line`, async () => {
    const run = await runCli(args);
    assertEquals(run.code, 2, run.stderr);
    const lines = run.stderr.trim().split("\n");
    assertEquals(lines.length, 1, `expected one line, got:\n${run.stderr}`);
    assertMatch(lines[0], /^rtbench: /);
    assertMatch(lines[0], message);
    assert(!run.stderr.includes("    at "), "no stack trace");
    assertEquals(run.stdout, "");
  });
}

Deno.test("--help and --list exit 0 and describe flags, workloads and runtimes", async () => {
  const help = await runCli(["--help"]);
  assertEquals(help.code, 0);
  for (
    const flag of [
      "--workload",
      "--runtime",
      "--duration",
      "--connections",
      "--runs",
      "--warmup",
      "--out",
      "--json",
      "--order",
      "--seed",
    ]
  ) {
    assert(help.stdout.includes(flag), `help mentions ${flag}`);
  }
  const list = await runCli(["--list"]);
  assertEquals(list.code, 0);
  assertMatch(list.stdout, /http-json\s+http/);
  for (const rt of ["deno", "node", "bun"]) assertMatch(list.stdout, new RegExp(`^  ${rt}\\s`, "m"));
});

// docs/reference.md (Flags): `--variant` defaults to "every variant but the optional ones (http-json's frameworks,
// rest-api's stacks; rest-api's framework matrix when the whole suite runs)"; "What you get": "ten workloads and 19
// variants today, 57 records on three runtimes".
Deno.test("the default suite runs every variant but the optional ones, which run when named", () => {
  const all = builtinWorkloads.flatMap((w) =>
    w.variants.map((v) => ({ id: `${w.name}/${v.name}`, optional: v.optional }))
  );
  const suite = planGroups(builtinWorkloads, "quick", {}, {}, undefined, true).map((g) =>
    `${g.workload.name}/${g.variant}`
  );
  // Eleven workloads; signup (003's experiment) runs when named, so the default suite has ten.
  assertEquals(builtinWorkloads.length, 11);
  assertEquals(new Set(suite.map((id) => id.split("/")[0])).size, 10);
  const inSuite = new Set(
    builtinWorkloads.flatMap((w) => w.variants.filter((v) => v.inSuite !== false).map((v) => `${w.name}/${v.name}`)),
  );
  assertEquals(suite, all.filter((v) => !v.optional && inSuite.has(v.id)).map((v) => v.id));
  assertEquals(suite.length, 19);
  assert(suite.includes("http-json/default") && !suite.includes("http-json/express"));
  assert(
    !suite.includes("rest-api/hono-stack") && !suite.includes("rest-api/hono") && suite.includes("rest-api/default"),
  );
  const named = planGroups(builtinWorkloads, "quick", {}, {}, ["express", "hono-stack"]);
  assertEquals(named.map((g) => `${g.workload.name}/${g.variant}`), [
    "http-json/express",
    "rest-api/express",
    "rest-api/hono-stack",
  ]);
});

// docs/reference.md (Flags): the table's defaults are the profiles' (`PROFILES`), and `--load-generator` lists every
// built-in generator.
Deno.test("the Flags table of docs/reference.md gives the profiles' defaults and every load generator", () => {
  const readme = docSection("docs/reference.md", "## Flags");
  const row = (flag: string) => {
    const line = readme.split("\n").find((l) => l.startsWith(`| \`${flag}`));
    if (!line) throw new Error(`docs/reference.md has no row for ${flag}`);
    return line.split("|").map((c) => c.trim());
  };
  const { quick, full } = PROFILES;
  assertEquals(row("--duration")[3], `quick ${quick.durationSec}, full ${full.durationSec}`);
  assertEquals(row("--warmup")[3], `quick ${quick.warmupSec}, full ${full.warmupSec}`);
  assertEquals(row("--runs")[3], `quick ${quick.runs}, full ${full.runs}`);
  assertEquals(row("--start-timeout")[3], `quick ${quick.startTimeoutSec}, full ${full.startTimeoutSec}`);
  assertEquals(row("--connections")[3], String(quick.connections));
  assertEquals(row("--pipelining")[3], String(quick.pipelining));
  assertEquals(row("--timeout")[3], String(quick.requestTimeoutSec));
  assertEquals([full.connections, full.pipelining, full.requestTimeoutSec], [100, 1, 10]);
  const listed = [...row("--load-generator")[2].matchAll(/`([a-z]+)`/g)].map((m) => m[1]);
  assertEquals(listed, ["auto", ...builtinLoadGenerators.map((g) => g.name)]);
});

// docs/workloads.md: the workloads' own quick defaults — "The postgres workload" (one run), http-json (five rounds),
// bcrypt ("2 connections with a 30 s request timeout", 2 s after 0.25 s), and the process and micro table (startup
// ≥ 10 runs and ≥ 1 s; install and fs 1 run, no warm-up; micro 0.5 s + 0.1 s warm-up, 3 runs). README "What you get":
// "five rounds for `http-json`", "bcrypt keeps 2 s windows".
Deno.test("the workloads' own defaults are the ones docs/workloads.md states", () => {
  const defaults = Object.fromEntries(builtinWorkloads.map((w) => [w.name, w.defaults]));
  assertEquals(defaults.postgres, { runs: 1 });
  assertEquals(defaults["http-json"], { cpuRate: 20_000, idleConnections: 1000, runs: 5 });
  assertEquals(defaults.bcrypt, { connections: 2, requestTimeoutSec: 30, durationSec: 2, warmupSec: 0.25 });
  assertEquals(defaults.startup, { runs: 10, durationSec: 1, warmupSec: 0 });
  assertEquals(defaults.install, { runs: 1, warmupSec: 0 });
  assertEquals(defaults.fs, { runs: 1, warmupSec: 0 });
  assertEquals(defaults.micro, { runs: 3, durationSec: 0.5, warmupSec: 0.1 });
});

// docs/workloads.md "The rest-api workload": "the whole suite measures each runtime's own server; the framework matrix
// runs when rest-api is named".
Deno.test("the whole suite keeps rest-api to its default variant; naming rest-api runs the framework matrix", () => {
  const names = (wholeSuite: boolean) =>
    planGroups([restApi], "quick", {}, {}, undefined, wholeSuite).map((g) => g.variant);
  assertEquals(names(true), ["default"]);
  assertEquals(names(false), restApi.variants.filter((v) => !v.optional).map((v) => v.name));
  assert(names(false).length >= 7, names(false).join());
  assertEquals(parseCli([]).wholeSuite, true);
  assertEquals(parseCli(["--workload", "rest-api"]).wholeSuite, undefined);
});
