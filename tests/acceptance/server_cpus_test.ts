// docs/guide.md "Every core: --server-cpus" (and the reports of "Native baselines"): each sentence is shown here.
// --server-cpus: each runtime serves in its own multi-core form on the CPUs it is given, and every form is
// verified like the single-process servers. On a 2-core machine the client shares the server's CPUs and the
// records say so.
import { assert, assertAlmostEquals, assertEquals, assertMatch } from "@std/assert";
import { parseResult } from "../../runners/schema/mod.ts";
import { go, rust } from "../../adapters/mod.ts";
import { assertNothingLeft, runCli, withTmp } from "../_helpers.ts";
import { needs, runtime } from "../_needs.ts";

const FORMS: Record<string, { form: string; processes: number; announces: boolean }> = {
  deno: { form: "deno serve --parallel", processes: 1, announces: true },
  node: { form: "node:cluster", processes: 3, announces: false },
  bun: { form: "Bun.serve reusePort, one process per CPU", processes: 3, announces: false },
  go: { form: "GOMAXPROCS", processes: 1, announces: true },
  rust: { form: "tokio multi-thread runtime, one worker per CPU", processes: 1, announces: true },
};

/** Runs http-json, uuid-file and ws on `runtimes` with --server-cpus 2; checks every record's multi-core form. */
async function serveOnTwoCpus(runtimes: string[], tmp: string): Promise<string> {
  const out = `${tmp}/r.json`;
  const cli = await runCli(
    [
      ...["--workload", "http-json,uuid-file,ws", "--variant", "default", "--runtime", runtimes.join(",")],
      ...["--server-cpus", "2"],
      ...["--duration", "0.3", "--warmup", "0.1", "--runs", "1", "--cpu-rate", "0", "--idle-connections", "0"],
      ...["--out", out],
    ],
    { TMPDIR: tmp },
  );
  assertEquals(cli.code, 0, cli.stderr + cli.stdout);
  const result = parseResult(await Deno.readTextFile(out));
  assertEquals(result.records.map((r) => r.runtime.name), [...runtimes, ...runtimes, ...runtimes]);
  const twoCpus = result.environment.allowedCpus === "0-1";
  for (const record of result.records) {
    assertEquals(record.status, "completed", `${record.id}: ${JSON.stringify(record.error)}`);
    assertEquals(record.settings.serverCpus, 2);
    const expected = FORMS[record.runtime.name];
    assertEquals(record.facts.serverForm, expected.form, record.id);
    assertEquals(record.facts.serverWorkers, 2);
    const checks = record.verification.checks;
    // The sampled process tree held the primary or launcher and one process per worker.
    const tree = checks.find((c) => c.name.startsWith("server process tree"));
    assertEquals([tree?.passed, tree?.actual], [true, expected.processes], record.id);
    // Threaded forms print how many workers they run: deno serve's own line, Go's GOMAXPROCS, tokio's workers.
    const workers = checks.find((c) => c.name.startsWith("server workers"));
    if (expected.announces) assertEquals([workers?.passed, workers?.actual], [true, 2], record.id);
    const headline = record.kind === "websocket" ? "messagesPerSecond" : "requestsPerSecond";
    const figures = record.runs[0].figures;
    // Per core is the figure over the two server CPUs.
    assertAlmostEquals(figures[`${headline}PerCore`], figures[headline] / 2, 1, record.id);
    if (twoCpus) {
      assertEquals(record.cpus, { server: "0,1", client: "0,1" });
      assert(record.warnings.some((w) => w.code === "cpus-shared"), record.id);
    }
  }
  if (twoCpus) assertMatch(cli.stdout, /server cpu 0,1, client cpu 0,1/);
  // Reports: a per-core column.
  assertMatch(cli.stdout, /relative +per server core/);
  assertMatch(cli.stdout, /\d[\d,]*\/s × 2/);
  await assertNothingLeft(tmp, ["r.json"]);
  return cli.stdout;
}

const NATIVE = [await runtime(go), await runtime(rust)];
// Where the baselines are installed they serve in the runtimes' run: one command line, whose report the baselines'
// test reads.
const RUNTIMES = ["deno", "node", "bun", ...NATIVE.every((n) => n.missing === null) ? ["go", "rust"] : []];
let served: Promise<string> | undefined;
const serve = () => served ??= withTmp((tmp) => serveOnTwoCpus(RUNTIMES, tmp));

Deno.test("--server-cpus 2: deno, node and bun each answer in their multi-core form, hold their workers, are verified", async () => {
  await serve();
});

// docs/guide.md "Native baselines": the baselines in a group of their own after the runtimes.
Deno.test(needs(NATIVE, {
  name: "--server-cpus 2: go and rust answer in their multi-core form; reports put them after the runtimes",
  async fn() {
    const stdout = await serve();
    const section = stdout.slice(stdout.search(/^http-json \(default\) · /m)).split("\n\n")[0];
    const rows = section.split("\n").filter((l) => /^(deno|node|bun|go|rust) /.test(l));
    // The runtimes first, then the two baselines (each group ranked among itself by its figure).
    const names = rows.map((l) => l.split(" ")[0]);
    assertEquals([names.slice(0, 3).sort(), names.slice(3).sort()], [["bun", "deno", "node"], ["go", "rust"]], section);
    for (const row of rows.slice(3)) assertMatch(row, /^(go|rust) \S+ \(baseline\) /);
  },
}));

Deno.test("--server-cpus beyond the machine, 0 or a word: exit 2, one line naming the flag", async () => {
  const cpus = navigator.hardwareConcurrency;
  for (
    const [value, message] of [
      [String(cpus + 1), new RegExp(`--server-cpus ${cpus + 1}: only \\d+ CPUs may be used here`)],
      ["0", /--server-cpus must be a whole number of CPUs or all, got 0/],
      ["many", /--server-cpus must be a number, got "many"|--server-cpus must be a whole number/],
    ] as const
  ) {
    const cli = await runCli(["--workload", "http-json", "--runtime", "deno", "--server-cpus", value]);
    assertEquals(cli.code, 2, `${value}: ${cli.stderr}`);
    assertEquals(cli.stderr.trim().split("\n").length, 1, cli.stderr);
    assertMatch(cli.stderr, message);
  }
});

// docs/guide.md "Every core: --server-cpus" (RTBENCH_CPUS): the server and the load where the variable says.
Deno.test("RTBENCH_CPUS=1/0 puts the server on CPU 1 and the load on CPU 0; a bad placement exits 2 naming it", async () => {
  await withTmp(async (tmp) => {
    const out = `${tmp}/r.json`;
    const args = [
      "--workload",
      "http-json",
      "--runtime",
      "deno",
      "--duration",
      "0.2",
      "--warmup",
      "0.1",
      "--runs",
      "1",
    ];
    const cli = await runCli([...args, "--cpu-rate", "0", "--idle-connections", "0", "--out", out], {
      TMPDIR: tmp,
      RTBENCH_CPUS: "1/0",
    });
    assertEquals(cli.code, 0, cli.stderr + cli.stdout);
    const [record] = parseResult(await Deno.readTextFile(out)).records;
    assertEquals([record.status, record.cpus], ["completed", { server: "1", client: "0" }]);
    // The report states the placement.
    assertMatch(cli.stdout, /server cpu 1, client cpu 0/);
    await assertNothingLeft(tmp, ["r.json"]);
  });
  const cpus = navigator.hardwareConcurrency;
  for (
    const [value, more, message] of [
      [`0/${cpus}`, [], new RegExp(`RTBENCH_CPUS=0/${cpus}: CPU ${cpus} is not one this process may use`)],
      ["0,1", [], /RTBENCH_CPUS=0,1: give the server's CPUs and the load's/],
      ["1/0", ["--server-cpus", "1"], /--server-cpus and RTBENCH_CPUS both place the server: give one/],
    ] as const
  ) {
    const cli = await runCli(["--workload", "http-json", "--runtime", "deno", ...more], { RTBENCH_CPUS: value });
    assertEquals(cli.code, 2, `${value}: ${cli.stderr}`);
    assertEquals(cli.stderr.trim().split("\n").length, 1, cli.stderr);
    assertMatch(cli.stderr, message);
  }
});

Deno.test("deno serve's listening line gives its worker count, and leaves it out for one worker", async () => {
  const { deno } = await import("../../adapters/mod.ts");
  const form = deno.parallel!("deno", "s.ts", [], 2, { host: "127.0.0.1", port: 3000 });
  const count = (line: string) => {
    const m = form.announces!.exec(line);
    return m ? Number(m[1] ?? 1) : null;
  };
  assertEquals(count("deno serve: Listening on http://127.0.0.1:3000/ with 2 threads"), 2);
  assertEquals(count("deno serve: Listening on http://127.0.0.1:3000/"), 1);
  assertEquals(count("Listening on http://127.0.0.1:3000/"), null);
});

Deno.test("--server-cpus 2 with a framework: node:cluster runs Express; Deno and Bun skip it, saying why", async () => {
  await withTmp(async (tmp) => {
    const out = `${tmp}/r.json`;
    const cli = await runCli(
      [
        ...["--workload", "http-json", "--variant", "express", "--runtime", "deno,node,bun", "--server-cpus", "2"],
        ...["--duration", "0.3", "--warmup", "0", "--runs", "1", "--out", out],
      ],
      { TMPDIR: tmp },
    );
    assertEquals(cli.code, 0, cli.stderr + cli.stdout);
    const records = parseResult(await Deno.readTextFile(out)).records;
    const status = Object.fromEntries(records.map((r) => [r.runtime.name, [r.status, r.skipReason ?? null]]));
    assertEquals(
      status.node,
      ["completed", null],
      JSON.stringify(records.find((r) => r.runtime.name === "node")?.error),
    );
    assertMatch(String(status.deno[1]), /does not export its handler for deno serve --parallel/);
    assertMatch(String(status.bun[1]), /does not share its port with reusePort/);
    assertEquals([status.deno[0], status.bun[0]], ["skipped", "skipped"]);
    await assertNothingLeft(tmp, ["r.json"]);
  });
});
