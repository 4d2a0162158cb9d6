import { assertEquals, assertStringIncludes } from "@std/assert";
import type { BenchRecord, RunRecord } from "../schema/result.ts";
import { judgeRounds, withPairedCi } from "./pairing.ts";

function runs(values: readonly number[]): RunRecord[] {
  return values.map((v, round) => ({ round, figures: { requestsPerSecond: v } }) as unknown as RunRecord);
}

function record(values: readonly number[], settings: Partial<BenchRecord["settings"]> = { runs: 3 }): BenchRecord {
  return {
    id: "http-json/default/deno",
    status: "completed",
    headline: { figure: "requestsPerSecond", higherIsBetter: true },
    settings,
    pairing: { id: "http-json/default t", records: [] },
    runs: runs(values),
    warnings: [{ code: "ci-wide", message: "its own interval" }, { code: "client-saturated", message: "kept" }],
  } as unknown as BenchRecord;
}

// docs/method.md "Runs and confidence intervals": `ci-wide` is judged on the paired interval of a runtime's ratios, by
// which it is ranked.
Deno.test("ci-wide of a paired record is judged on the paired interval of its ratios, not its own", () => {
  // deno ±15% from round to round, node with it: the ratio 1.9 in every round. No ci-wide, other warnings kept.
  const steady = withPairedCi(record([150_000, 180_000, 120_000]), [{
    label: "node",
    runs: runs([78_947, 94_737, 63_158]),
  }]);
  assertEquals(steady.warnings.map((w) => w.code), ["client-saturated"]);

  // Ratios 2.2, 1.8 and 2.0 over three rounds. By hand: ln ratios 0.788457, 0.587787, 0.693147, mean 0.689797,
  // s = 0.1003773, half = 4.302653 · s / √3 = 0.249351 → ±(e^0.249351 − 1) = ±28.3%, above the 10% of fixed runs.
  const wide = withPairedCi(record([220, 180, 200]), [{ label: "node", runs: runs([100, 100, 100]) }]);
  assertEquals(wide.warnings.map((w) => w.code), ["client-saturated", "ci-wide"]);
  assertStringIncludes(
    wide.warnings[1].message,
    "paired 95% CI of requestsPerSecond against node is ±28.3% after 3 rounds",
  );

  // Adaptive runs: judged against --ci-target (3%) — ratios 1.9, 1.95, 1.85: ±6.8% by the same formula.
  const adaptive = withPairedCi(record([190, 195, 185], { runs: 3, minRuns: 3, maxRuns: 3, ciTargetPercent: 3 }), [{
    label: "node",
    runs: runs([100, 100, 100]),
  }]);
  assertStringIncludes(adaptive.warnings.at(-1)!.message, "target ±3%");
});

Deno.test("a record without a pairing, or without a pair with an interval, keeps its own ci-wide", () => {
  const lone = { ...record([220, 180, 200]), pairing: undefined };
  assertEquals(withPairedCi(lone, [{ label: "node", runs: runs([100, 100, 100]) }]), lone);
  const once = record([220, 180, 200]);
  assertEquals(withPairedCi(once, [{ label: "node", runs: runs([100]) }]), once, "one shared round: no interval");
});

/** A record being measured, as far as judgeRounds looks at it. */
function live(values: readonly number[], adaptive = true) {
  return {
    ended: false,
    runs: values.length,
    plan: { adaptive, min: 2, max: 6, ciTargetPercent: 3 },
    outcome: { headline: { figure: "requestsPerSecond", higherIsBetter: true }, runs: runs(values) },
    pairedNeed: undefined as boolean | undefined,
  };
}

// docs/method.md "Runs and confidence intervals": with --min-runs/--max-runs, runs are added until the paired intervals
// of the runtimes' ratios are within --ci-target, all of a variant's runtimes together so that their rounds stay
// paired.
Deno.test("adaptive rounds stop on the paired interval, for every record of the variant together", () => {
  // Each runtime ±15% from round to round, their ratio 1.9 every time: their own intervals are ±37%, the ratio's 0.
  const deno = live([150_000, 180_000, 120_000]);
  const node = live([78_947.368, 94_736.842, 63_157.895]);
  judgeRounds([deno, node] as never);
  assertEquals([deno.pairedNeed, node.pairedNeed], [false, false]);
  // Ratios 2.2, 1.8, 2.0: ±28.3% (see above), above the 3% target: both run again.
  const a = live([220, 180, 200]);
  const b = live([100, 100, 100]);
  judgeRounds([a, b] as never);
  assertEquals([a.pairedNeed, b.pairedNeed], [true, true]);
  // Fixed runs are left to their own rule.
  const fixed = live([220, 180, 200], false);
  judgeRounds([fixed, live([100, 100, 100], false)] as never);
  assertEquals(fixed.pairedNeed, undefined);
});
