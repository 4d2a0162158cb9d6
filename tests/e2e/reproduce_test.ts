// README walk: shows claims of docs/reproduce.md "The articles' experiments, and `deno task reproduce`" (the task, its flags and its table).
// deno task reproduce: the claims file covers the five articles and names only experiments rtbench can run; a claim's
// row pairs the arms' runs round by round (checked against a ratio and interval worked out by hand); the task prints
// the table for real claims, and refuses an unknown claim with exit 2 and one line.
import {
  assert,
  assertAlmostEquals,
  assertEquals,
  assertMatch,
  assertRejects,
  assertStringIncludes,
} from "@std/assert";
import { builtinWorkloads } from "../../workloads/mod.ts";
import {
  claimRow,
  CLAIMS_FILE,
  experimentRun,
  formatReproduce,
  publishedVersions,
  readClaims,
  reproduce,
} from "../../runners/selfcheck/reproduce.ts";
import type { BenchResult } from "../../runners/schema/result.ts";
import { builtinLoadGenerators, pickLoadGenerator } from "../../runners/drivers/generators.ts";
import { effectiveSettings, resolveOptions } from "../../runners/suite/settings.ts";
import { assertNothingLeft, runTask, withTmp } from "../_helpers.ts";
import { needs, NETWORK } from "../_needs.ts";

Deno.test("the claims file covers 000–004, and every experiment names a workload and variants rtbench has", async () => {
  const file = await readClaims();
  const articles = new Set(file.claims.map((c) => file.experiments[c.experiment].article));
  assertEquals([...articles].sort(), ["000", "001", "002", "003", "004"]);
  for (const [name, e] of Object.entries(file.experiments)) {
    const workload = builtinWorkloads.find((w) => w.name === e.workload);
    if (!workload) throw new Error(`${name}: no workload ${e.workload}`);
    for (const v of e.variants) assert(workload.variants.some((x) => x.name === v), `${name}: no variant ${v}`);
    assert(file.articles[e.article], name);
  }
  // Every claim's published ratio is the article's two figures, and says which arm the article ranked first.
  for (const c of file.claims) assert(c.published.a > 0 && c.published.b > 0, c.name);
  // 004's connection ladder: 10, 1,000 and 10,000 connections. 004 used autocannon, but rtbench's rest-api traffic
  // sends an id captured from a response, which only rtbench's engine can: the ladder runs on it and says so.
  const ladder = Object.values(file.experiments).filter((e) => e.article === "004");
  assertEquals(ladder.map((e) => e.settings.connections), [10, 1000, 10000]);
  assert(ladder.every((e) => e.loadGenerator === "rtbench"));
  assert(file.claims.filter((c) => c.name.startsWith("004-")).every((c) => /autocannon/.test(c.note ?? "")));
});

Deno.test("every experiment reproduce plans is one its load generator can send: the generator check passes", async () => {
  // The check the HTTP kind makes before any load (pickLoadGenerator), on each experiment's own traffic and settings
  // as the suite resolves them: an experiment the check refuses would end every one of its claims n/a.
  const file = await readClaims();
  const signal = new AbortController().signal;
  for (const [name, e] of Object.entries(file.experiments)) {
    const plan = experimentRun(e, {});
    const workload = builtinWorkloads.find((w) => w.name === plan.workload)!;
    if (workload.kind !== "http") {
      assertEquals(plan.loadGenerator, undefined, `${name}: a ${workload.kind} workload has no load generator`);
      continue;
    }
    const candidates = plan.loadGenerator
      ? builtinLoadGenerators.filter((g) => g.name === plan.loadGenerator)
      : builtinLoadGenerators;
    assertEquals(candidates.length > 0, true, `${name}: no generator ${plan.loadGenerator}`);
    const choice = { requested: plan.loadGenerator ?? "auto", candidates };
    const settings = effectiveSettings("quick", workload, plan.settings);
    const options = resolveOptions(workload, plan.options);
    for (const variant of plan.variants) {
      const traffic = workload.traffic({ variant, options, settings, tempDir: "", signal });
      const picked = pickLoadGenerator(choice, { baseUrl: "", requests: traffic.requests }, settings);
      if (plan.loadGenerator) assertEquals(picked.generator.name, plan.loadGenerator, `${name}/${variant}`);
    }
  }
});

/** A result with two arms' runs (only what a row reads). */
function resultOf(a: number[], b: number[], bRounds?: number[]): BenchResult {
  const record = (runtime: string, values: number[], rounds?: number[]) => ({
    runtime: { name: runtime, requested: runtime },
    variant: "default",
    status: "completed",
    error: null,
    skipReason: null,
    runs: values.map((v, i) => ({ index: i, round: rounds?.[i] ?? i, figures: { requestsPerSecond: v } })),
  });
  return { records: [record("deno", a), record("bun", b, bRounds)] } as unknown as BenchResult;
}

Deno.test("a claim's row: the ratio of the arms' runs paired by round, with a t interval on the log ratios", async () => {
  const file = await readClaims();
  const claim = file.claims.find((c) => c.name === "000-deno-vs-bun")!;
  // Rounds 0, 1, 2: deno 100, 110, 121 against bun 50, 50, 55, so ratios 2, 2.2, 2.2.
  // Geometric mean (2 × 2.2 × 2.2)^(1/3) = 9.68^(1/3) = 2.1312. Logs 0.693147, 0.788457, 0.788457: mean 0.756687,
  // sd 0.055027; t(0.975, 2) = 4.302653, half-width 4.302653 × 0.055027 / √3 = 0.136696: exp(0.619991) = 1.8589,
  // exp(0.893383) = 2.4434 (worked with a calculator, not with rtbench).
  const row = claimRow(claim, "000", ["default"], resultOf([100, 110, 121], [50, 50, 55]), "cmd");
  assertAlmostEquals(row.measured!.ratio, 2.1312, 1e-4);
  assertAlmostEquals(row.measured!.low!, 1.8589, 1e-4);
  assertAlmostEquals(row.measured!.high!, 2.4434, 1e-4);
  assertAlmostEquals(row.published.ratio, 148309.34 / 132417.07, 1e-9);
  assertEquals(row.verdict, "yes");
  // Pairing follows the round, not the order runs are listed in: bun's runs listed as rounds 2, 0, 1 pair as above.
  const listed = claimRow(claim, "000", ["default"], resultOf([100, 110, 121], [55, 50, 50], [2, 0, 1]), "cmd");
  assertAlmostEquals(listed.measured!.ratio, 2.1312, 1e-4);
  // An arm that errored: no ratio, and the row says why.
  const failed = resultOf([100], [50]);
  (failed.records[1] as { status: string; error: unknown }).status = "errored";
  (failed.records[1] as { error: unknown }).error = { message: "Cannot start server: port 3000 is in use" };
  const none = claimRow(claim, "000", ["default"], failed, "cmd");
  assertEquals([none.verdict, none.measured], ["n/a", null]);
  assertMatch(none.note!, /bun errored: Cannot start server/);
});

Deno.test("reproduce runs each experiment once for all its claims, scaled by default, the article's durations with full", async () => {
  const file = await readClaims();
  const asked: string[] = [];
  const rows = await reproduce(file, ["002-http"], {}, (run) => {
    asked.push(`${run.workload} ${run.settings.connections} ${run.settings.durationSec} ${run.loadGenerator}`);
    return Promise.resolve(resultOf([], []));
  });
  assertEquals(asked, ["http-json 400 5 wrk"]);
  assertEquals(rows.map((r) => r.claim).length, 4);
  assertEquals(experimentRun(file.experiments["002-http"], { full: true }).settings.durationSec, 30);
  assertEquals(experimentRun(file.experiments["001-uuid-file"], { full: true }).settings.durationSec, 300);
});

Deno.test("a 001 row's note says how long its runs lasted and the article's 300 s: 5 s scaled, 300 s with full", async () => {
  const file = await readClaims();
  // Both arms completed, so that the row's note is the claim's, not why an arm has no figure.
  const result = resultOf([100, 110, 120], [50, 55, 60]);
  (result.records[0] as { runtime: { name: string; requested: string } }).runtime = { name: "rust", requested: "rust" };
  (result.records[1] as { runtime: { name: string; requested: string } }).runtime = { name: "go", requested: "go" };
  const note = async (full: boolean) =>
    (await reproduce(file, ["001-rust-vs-go"], { full }, () => Promise.resolve(result)))[0].note;
  assertEquals(
    await note(false),
    "runs of 5 s here, the article's of 300 s: its figure is wrk's total requests over its 300 s (its headline k/s " +
      "is wrk's per-thread figure)",
  );
  assertMatch((await note(true))!, /^runs of 300 s here, the article's of 300 s:/);
  // A row with no figure says why instead; the note's fields are never printed as they are written.
  const rows = await reproduce(file, ["001"], {}, () => Promise.reject(new Error("wrk is not installed")));
  assert(rows.every((r) => !/[{}]/.test(r.note ?? "")), JSON.stringify(rows.map((r) => r.note)));
});

Deno.test("a claims file whose note names a duration its experiment does not have is refused", () =>
  withTmp(async (tmp) => {
    const file = JSON.parse(await Deno.readTextFile(CLAIMS_FILE));
    const startup = file.claims.find((c: { experiment: string }) => c.experiment === "002-startup");
    startup.note = "runs of {ran} here";
    await Deno.writeTextFile(`${tmp}/claims.json`, JSON.stringify(file));
    await assertRejects(
      () => readClaims(new URL(`file://${tmp}/claims.json`)),
      TypeError,
      "note's {ran} names no duration of its experiment",
    );
    startup.note = "runs of {typo} here";
    await Deno.writeTextFile(`${tmp}/claims.json`, JSON.stringify(file));
    await assertRejects(() => readClaims(new URL(`file://${tmp}/claims.json`)), TypeError, "{typo}");
  }));

/** A startup record of `requested` (its version after the @, or `version`), one run per round. */
function startupRecord(requested: string, version: string, wallMs: number[]) {
  return {
    runtime: { name: requested.split("@")[0], requested, version },
    variant: "hello",
    status: "completed",
    error: null,
    skipReason: null,
    runs: wallMs.map((v, i) => ({ index: i, round: i, figures: { wallMs: v } })),
  };
}

// docs/reproduce.md "The articles' versions": "--as-published measures each experiment on the versions its article
// ran beside today's, in the same rounds … the row says which version npm lacks, and why".
Deno.test("--as-published: one suite runs today's and the article's versions; each row reads both", async () => {
  const file = await readClaims();
  const asked: string[][] = [];
  const published = { runtimes: { bun: "bun@1.2.0", deno: "deno@2.0.0", node: "node@22.0.0" }, missing: {} };
  const result = {
    records: [
      startupRecord("bun", "1.4.5", [10, 11, 10]),
      startupRecord("deno", "2.9.6", [40, 44, 40]),
      startupRecord("node", "26.10.0", [50, 55, 50]),
      startupRecord("bun@1.2.0", "1.2.0", [12, 13, 12]),
      startupRecord("deno@2.0.0", "2.0.0", [60, 65, 60]),
      startupRecord("node@22.0.0", "22.0.0", [48, 52, 48]),
    ],
  } as unknown as BenchResult;
  const rows = await reproduce(file, ["002-startup"], { asPublished: { "002": published } }, (run) => {
    asked.push([...run.runtimes]);
    return Promise.resolve(result);
  });
  assertEquals(asked, [["bun", "deno", "node", "bun@1.2.0", "deno@2.0.0", "node@22.0.0"]]);
  const [bunDeno, denoNode] = rows;
  assertEquals([bunDeno.versions, bunDeno.asPublished?.versions], [
    "bun 1.4.5 vs deno 2.9.6",
    "bun 1.2.0 vs deno 2.0.0",
  ]);
  assertAlmostEquals(bunDeno.measured!.ratio, 0.25, 1e-9);
  assertAlmostEquals(bunDeno.asPublished!.measured!.ratio, 0.2, 1e-9);
  // Deno 2.0.0 started slower than Node.js 22.0.0 here, and 2.9.6 faster than 26.10.0: held today, not then.
  assertEquals([denoNode.asPublished?.verdict, denoNode.verdict], ["no", "yes"]);
  const markdown = formatReproduce(rows, "markdown").split("\n");
  assertEquals(
    markdown[0],
    "| claim | a vs b | published | published a/b | article's versions | rtbench a/b, article's versions [95% CI] | " +
      "today's versions | rtbench a/b, today's versions [95% CI] | same ranking (article's / today's) | cmd | note |",
  );
  assertMatch(
    markdown[3],
    /^\| 002-startup-deno-vs-node \| .* \| deno 2\.0\.0 vs node 22\.0\.0 \| 1\.25 \[1\.25–1\.25\] \| /,
  );
  assertMatch(markdown[3], / \| no \/ yes \| \[1\] \|/);
});

Deno.test("--as-published: a version npm lacks is not run, and the row says which and why", async () => {
  const file = await readClaims();
  const npm: Record<string, string[]> = { node: ["22.5.1"], bun: ["1.1.21"], deno: ["1.46.0", "2.0.0"] };
  const versions = await publishedVersions(
    file.articles["000"].versions,
    file.experiments["000-http"].runtimes,
    (r) => Promise.resolve(npm[r] ?? null),
  );
  assertEquals(versions.runtimes, { bun: "bun@1.1.21", node: "node@22.5.1" });
  assertEquals(versions.missing, { deno: "npm has no deno 1.45.5; its nearest is 1.46.0" });
  const plan = experimentRun(file.experiments["000-http"], { asPublished: { "000": versions } });
  assertEquals(plan.runtimes, ["deno", "bun", "node", "bun@1.1.21", "node@22.5.1"]);
  const rows = await reproduce(
    file,
    ["000"],
    { asPublished: { "000": versions } },
    () => Promise.resolve(resultOf([], [])),
  );
  const denoBun = rows.find((r) => r.claim === "000-deno-vs-bun")!;
  assertEquals(denoBun.asPublished, {
    versions: "deno (not run) vs bun 1.1.21",
    measured: null,
    verdict: "n/a",
    why: "npm has no deno 1.45.5; its nearest is 1.46.0",
  });
  assertMatch(
    formatReproduce([denoBun], "text"),
    /article's versions: npm has no deno 1\.45\.5; its nearest is 1\.46\.0/,
  );
  // Native toolchains are built here, whatever the article ran; an article that names no versions says so.
  const native = await publishedVersions(
    file.articles["001"].versions,
    ["go", "node"],
    (r) => Promise.resolve(r === "go" ? null : ["20.6.1"]),
  );
  assertEquals(native.missing, { go: "rtbench builds go with this machine's toolchain, not the article's 1.21.1" });
  const none = await publishedVersions(file.articles["004"].versions, ["bun"], () => Promise.resolve(["1.4.5"]));
  assertEquals(none.missing, { bun: "the article names no bun version" });
});

Deno.test("deno task reproduce --claim 002-startup prints the table with both startup claims and writes the rows", () =>
  withTmp(async (tmp) => {
    const out = `${tmp}/rows.json`;
    const cli = await runTask("reproduce", ["--claim", "002-startup", "--runs", "3", "--out", out], { TMPDIR: tmp });
    assertEquals(cli.code, 0, cli.stderr);
    for (const claim of ["002-startup-bun-vs-deno", "002-startup-deno-vs-node"]) {
      assertMatch(cli.stdout, new RegExp(`^${claim} .*\\b(yes|no|tie)\\b`, "m"));
    }
    assertMatch(cli.stdout, /deno task bench --workload startup --variant hello --runtime bun,deno,node --runs 3$/m);
    assertMatch(cli.stdout, /^Load average \(1, 5, 15 min\): /m);
    const written = JSON.parse(await Deno.readTextFile(out));
    assertEquals(written.rows.length, 2);
    // At least the three runs asked for (the startup workload adds runs until its minimum time is reached).
    assert(written.rows.every((r: { measured: { n: number } }) => r.measured.n >= 3), JSON.stringify(written.rows));
    await assertNothingLeft(tmp, ["rows.json"]);
  }));

Deno.test("deno task reproduce --list names every claim; --markdown prints the table as Markdown", async () => {
  const file = await readClaims();
  const list = await runTask("reproduce", ["--list"]);
  assertEquals(list.code, 0, list.stderr);
  assertEquals(list.stdout.trim().split("\n").map((l) => l.split(/\s+/)[0]), file.claims.map((c) => c.name));
  // Markdown rows for the claims of an experiment that cannot run here (a runner that fails is the task's own path
  // for a missing tool): the table, its header and the reason.
  const rows = await reproduce(file, ["001-no-params"], {}, () => Promise.reject(new Error("wrk is not installed")));
  const { formatReproduce } = await import("../../runners/selfcheck/reproduce.ts");
  const markdown = formatReproduce(rows, "markdown").split("\n");
  assertEquals(
    markdown[0],
    "| claim | a vs b | published | published a/b | rtbench a/b [95% CI] | same ranking | cmd | note |",
  );
  assertMatch(
    markdown[2],
    /^\| 001-no-params-node-vs-bun \| node vs bun \| 26,082.39 vs 25,204.39 req\/s \| 1\.03 \| n\/a \| n\/a \| \[1\] \| wrk is not installed \|$/,
  );
});

Deno.test("deno task reproduce --claim nope: exit 2, one line naming the flag", async () => {
  const cli = await runTask("reproduce", ["--claim", "nope"]);
  assertEquals(cli.code, 2);
  assertEquals(cli.stderr.trim().split("\n").filter((l) => !l.includes("Task")).length, 1);
  assertMatch(cli.stderr, /--claim: unknown claim "nope"/);
});

// docs/reproduce.md "The articles' versions": "`--as-published` runs each experiment on the versions its article ran,
// where npm has them, beside today's".
Deno.test(needs(NETWORK, {
  name: "reproduce --claim 002-startup --as-published: both columns, on Node 22.0.0, Bun 1.2.0, Deno 2.0.0 and today's",
  async fn() {
    await withTmp(async (tmp) => {
      const out = `${tmp}/rows.json`;
      const args = ["--claim", "002-startup", "--as-published", "--runs", "2", "--out", out];
      const cli = await runTask("reproduce", args, { TMPDIR: tmp });
      assertEquals(cli.code, 0, cli.stderr);
      assertStringIncludes(cli.stdout, "rtbench a/b, article's versions [95% CI]");
      assertMatch(cli.stdout, /--runtime bun,deno,node,bun@1\.2\.0,deno@2\.0\.0,node@22\.0\.0 /);
      const { rows } = JSON.parse(await Deno.readTextFile(out));
      assertEquals(rows.map((r: { asPublished: { versions: string } }) => r.asPublished.versions), [
        "bun 1.2.0 vs deno 2.0.0",
        "deno 2.0.0 vs node 22.0.0",
      ]);
      for (const row of rows) {
        assert(row.asPublished.measured !== null && row.measured !== null, JSON.stringify(row));
        assertMatch(row.versions, /^\w+ \d+\.\d+\.\d+ vs \w+ \d+\.\d+\.\d+$/);
      }
    });
  },
}));
