// README walk: shows claims of docs/method.md "Slow workloads: enough responses to rank" (bcrypt at its defaults, bcryptjs at 24 and 30 connections).
// Defaults that measure: a slow workload's figure is not rounded by counting (bcrypt at its defaults counts 21–32
// hashes in 2 s, which over the window read 11 or 11.5/s; over the counted responses' span they do not round), and a
// server slower than the window is a result with its long latency (bcryptjs at 100 connections, which 003 reports at
// seconds of p50), not "No valid response".
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
      // count in the window is its window over its gap give or take one answer, so two connections' within two.
      const overWindow = r.figures.validResponses / seconds;
      assert(
        Math.abs(r.figures.requestsPerSecond - overWindow) < 2 / seconds,
        `${r.figures.requestsPerSecond} / ${overWindow}`,
      );
    }
    assertEquals(await processesMatching(tmp), []);
  }));

Deno.test("bcryptjs at 24 connections: a server slower than the window reports its latency, not an error", () =>
  withTmp(async (tmp) => {
    const result = await run({
      workloads: [bcrypt],
      runtimes: ["node"],
      variants: ["bcryptjs"],
      // 003's regime (100 connections, seconds of p50), scaled down: 24 interleaved hashes at cost 6 take longer than
      // the 0.1 s window, so it counts none, and the run measured again lasts the timeout one request alone predicts
      // (about 10 s, 10 × 24 × its 40 ms), which rtbench raises the 1 s asked for to.
      settings: { connections: 24, durationSec: 0.1, warmupSec: 0.05, runs: 1, requestTimeoutSec: 1 },
      options: { "bcrypt-cost": 6 },
      tempDir: tmp,
    });
    assertEquals(validateResult(result), []);
    const [record] = result.records;
    assertEquals(record.status, "completed", JSON.stringify(record.error));
    const [r] = record.runs;
    assert(r.figures.validResponses > 0);
    // 24 hashes interleaved on one thread: each answer waits for about 24 hashes' time, longer than the window asked.
    assert(record.latencyUs!.p50 >= 100_000, `p50 ${record.latencyUs!.p50} µs`);
    assertEquals(r.counts.mismatches, 0);
    // docs/method.md (above): "A run that counts fewer … is measured again, on a fresh server, over a window long
    // enough to count them".
    // 24 interleaved hashes take longer than the window: 0.1 s counts too few (fewer than 20 over at least half the window, or
    // than 100 over a shorter span), and the run was measured again over a longer window, which the record says (and,
    // where the short attempt counted none, that a server slower than the window is measured).
    const extended = record.warnings.find((w) => w.code === "window-extended");
    if (!extended) throw new Error(`no window-extended warning: ${JSON.stringify(record.warnings)}`);
    if (/: 0 in [\d.]+ s valid/.test(extended.message)) {
      assert(extended.message.includes("a server slower than the window is measured"), extended.message);
    }
    assertEquals(await processesMatching(tmp), []);
  }));

// docs/workloads.md (Slow workloads): a run whose every request timed out is measured again with the timeout one
// request alone predicts. 003's regime under its own client, autocannon, with a request timeout (1 s) shorter than 30
// interleaved hashes take on these machines: before, every request timed out, autocannon sent it again on a new
// connection (the server still hashed the old one), and the run ended "No valid response".
Deno.test("bcryptjs at 30 connections under autocannon, 1 s timeout: measured with a longer one, not failed", () =>
  withTmp(async (tmp) => {
    const result = await run({
      workloads: [bcrypt],
      runtimes: ["node"],
      variants: ["bcryptjs"],
      // Cost 9, not 10: 30 interleaved hashes still take twice the timeout, and the raised timeout (the window of the
      // run measured again) is half as long.
      settings: { connections: 30, durationSec: 1.5, warmupSec: 0.5, runs: 1, requestTimeoutSec: 1 },
      options: { "bcrypt-cost": 9 },
      loadGenerator: "autocannon",
      tempDir: tmp,
    });
    assertEquals(validateResult(result), []);
    const [record] = result.records;
    assertEquals(record.status, "completed", JSON.stringify(record.error));
    assert(record.warnings.some((w) => w.code === "request-timeout-raised"), JSON.stringify(record.warnings));
    // Each answer waits for the others' hashes: past the 1 s the run was asked for, which would have cut it off.
    assert(record.latencyUs!.p50 > 1_000_000, `p50 ${record.latencyUs!.p50} µs`);
    // docs/method.md (above): autocannon reports no counted responses' span; its runs are over their windows.
    assertEquals(record.runs.map((r) => r.figures.countedSpanMs), [undefined]);
    assertEquals(await processesMatching(tmp), []);
  }));
