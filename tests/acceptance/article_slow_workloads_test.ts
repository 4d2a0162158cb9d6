// README walk: shows claims of docs/method.md "Slow workloads: enough responses to rank" (bcrypt at its defaults).
// Defaults that measure: a slow workload's figure is not rounded by counting (bcrypt at its defaults counts 21–32
// hashes in 2 s, which over the window read 11 or 11.5/s; over the counted responses' span they do not round). A server
// slower than the window: tests/acceptance/slow_server_test.ts.
// Runs alone: what it asserts is how bcrypt's answers fall over the windows at their defaults.
import { assert, assertAlmostEquals, assertEquals } from "@std/assert";
import { run } from "../_suite.ts";
import { validateResult } from "../../runners/schema/mod.ts";
import { bcrypt } from "../../workloads/bcrypt.ts";
import { MIN_COUNTED_OVER_SPAN, MIN_COUNTED_RESPONSES } from "../../runners/samples/counted_rate.ts";
import { processesMatching, withTmp } from "../_helpers.ts";

Deno.test("bcrypt at its defaults: every run counts enough responses, and the runs' figures differ", () =>
  withTmp(async (tmp) => {
    const result = await run({
      workloads: [bcrypt],
      runtimes: ["deno"],
      variants: ["bcryptjs"],
      settings: { runs: 2 },
      tempDir: tmp,
    });
    assertEquals(validateResult(result), []);
    let overSpan = 0;
    for (const record of result.records) {
      assertEquals(record.status, "completed", JSON.stringify(record.error));
      // The defaults asked for: 2 connections, 2 s.
      assertEquals([record.settings.connections, record.settings.durationSec], [2, 2]);
      for (const r of record.runs) {
        // README ("What you get"): the engine keeps each connection's counted responses' span, "the rate is the sum
        // of each connection's over its span where every connection's came evenly, and a run that counted 20 that way
        // stands" (rtbench's default windows, 2 s); otherwise a run counts 100 (in a longer window), and its figure is
        // over that.
        const span = r.figures.countedSpanMs;
        const n = r.figures.validResponses;
        if (span === undefined) {
          assert(n >= MIN_COUNTED_RESPONSES, `${record.runtime.name}: ${n} over the window`);
          assertAlmostEquals(r.figures.requestsPerSecond, n / (r.figures.durationMs / 1000), 0.006);
          continue;
        }
        overSpan++;
        assert(n >= MIN_COUNTED_OVER_SPAN, `${record.runtime.name}: ${n}`);
        // The figure is the responses' intervals over their span, not the count over the window, which moves in
        // steps of 0.5/s at 2 s. Each of the 2 connections' spans lies in the window and covers half of it at least,
        // so its rate is at least its n_c − 1 intervals over the window: all n − 1 at the summed rate take at most
        // the window × (n − 1) / (n − 2).
        assert(
          span >= r.figures.durationMs / 2 && span <= r.figures.durationMs * (n - 1) / (n - 2),
          `span ${span} of ${r.figures.durationMs}`,
        );
        assertAlmostEquals(r.figures.requestsPerSecond, (n - 1) / (span / 1000), 0.006);
      }
      // A run measured again had counted too few first (fewer than 100 over the window, or 20 over an even span).
      for (const w of record.warnings.filter((w) => w.code === "window-extended")) {
        const first = Number(/^run \d+: (\d+) in /.exec(w.message)?.[1]);
        assert(first < MIN_COUNTED_RESPONSES, w.message);
      }
      const rates = record.runs.map((r) => r.figures.requestsPerSecond);
      assert(new Set(rates).size > 1, `${record.runtime.name}: identical runs ${rates}`);
      const summary = record.summary.requestsPerSecond;
      assert(summary.ci95 && summary.ci95.high > summary.ci95.low, "a real interval, not a zero-width one");
    }
    // bcryptjs hashes one request at a time on one thread, so each connection's answers come evenly: runs stand over
    // their spans.
    assert(overSpan > 0, "no run over its counted responses' span");
    assertEquals(await processesMatching(tmp), []);
  }));

Deno.test("bcrypt native at its defaults: answers in pairs, yet runs stand over each connection's span", () =>
  withTmp(async (tmp) => {
    const result = await run({
      workloads: [bcrypt],
      runtimes: ["deno"],
      variants: ["native"],
      settings: { runs: 3 },
      tempDir: tmp,
    });
    assertEquals(validateResult(result), []);
    const [record] = result.records;
    assertEquals(record.status, "completed", JSON.stringify(record.error));
    // README ("What you get"): "every run of bcrypt's `native` variant, whose two threads answer in pairs, now stood at
    // 26–32 responses instead of counting 100". The pool's two threads finish their hashes together, so the two
    // connections' answers together come in pairs (gaps near 0 and near two hashes' time); each connection's own come
    // one hash pair's time apart, evenly. A run over its spans counted at least 20, in its 2 s window.
    const overSpans = record.runs.filter((r) => r.figures.countedSpanMs !== undefined);
    assert(overSpans.length > 0, "no run over its connections' spans");
    for (const r of overSpans) {
      assert(r.figures.validResponses >= MIN_COUNTED_OVER_SPAN, `${r.figures.validResponses}`);
      // Its 2 s window, or a longer one where a busy machine's first attempt counted too few.
      const seconds = r.figures.durationMs / 1000;
      assert(seconds >= 2 - 0.01, `${seconds} s`);
      // The rate over the spans and the count over the window agree within what counting rounds: each connection's
      // count in the window is its window over its gap give or take one answer, so two connections' within two, and
      // one more for gaps that are not quite even (26.4 over the spans against 24 counted in one CI run).
      const overWindow = r.figures.validResponses / seconds;
      assert(
        Math.abs(r.figures.requestsPerSecond - overWindow) < 3 / seconds,
        `${r.figures.requestsPerSecond} / ${overWindow}`,
      );
    }
    assertEquals(await processesMatching(tmp), []);
  }));
