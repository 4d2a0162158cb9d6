// README walk: shows claims of README "Flags" and "Exit codes" (2): every bad flag value is one line naming the flag.
// Every bad flag exits 2 with one line naming the flag, and never a stack trace.
import { assert, assertEquals, assertMatch } from "@std/assert";
import { runCli } from "./_helpers.ts";
import { planGroups } from "../runners/suite/plan.ts";
import { parseCli } from "../runners/cli/bench.ts";
import { restApi } from "../workloads/rest_api.ts";

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
  [["--out", "/nonexistent-dir/r.json", "--runtime", "deno"], /--out: cannot write \/nonexistent-dir\/r.json/],
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

// README "The rest-api workload": "the whole suite measures each runtime's own server; the framework matrix runs when
// rest-api is named".
Deno.test("the whole suite keeps rest-api to its default variant; naming rest-api runs the framework matrix", () => {
  const names = (wholeSuite: boolean) =>
    planGroups([restApi], "quick", {}, {}, undefined, wholeSuite).map((g) => g.variant);
  assertEquals(names(true), ["default"]);
  assertEquals(names(false), restApi.variants.filter((v) => !v.optional).map((v) => v.name));
  assert(names(false).length >= 7, names(false).join());
  assertEquals(parseCli([]).wholeSuite, true);
  assertEquals(parseCli(["--workload", "rest-api"]).wholeSuite, undefined);
});
