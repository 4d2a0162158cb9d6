import { assertEquals } from "@std/assert";
import { httpJson } from "../../workloads/mod.ts";
import { DUET_ROUNDS, planDuets, wantsRound } from "./duet_variant.ts";
import type { DuetVariantContext } from "./duet_variant.ts";

// docs/method.md "Duet pairing": duet is the default; each pair's rounds run to at least 4, then two at a time while
// its interval is wider than --ci-target, to at most 10, unless after 6 its ranking is settled and the target out of
// reach.
Deno.test("duet rounds: the least first, then two at a time while a pair is wide, never past the most", () => {
  const plan = { ...DUET_ROUNDS, targetPercent: 3 };
  const rounds = (halfWidth: (ran: number) => number | null, p = 0.01) => {
    let ran = 0;
    while (wantsRound(ran, { n: ran, halfWidthPercent: halfWidth(ran), p }, plan)) ran++;
    return ran;
  };
  // Narrow from the first rounds: the least, and no more.
  assertEquals(rounds(() => 1), DUET_ROUNDS.min);
  // Wide until round 5: it stops after 6 (an even number), not 5.
  assertEquals(rounds((ran) => ran < 5 ? 3.5 : 2), 6);
  // Never narrow, or no interval at all: the most.
  assertEquals([rounds(() => 9), rounds(() => null)], [DUET_ROUNDS.max, DUET_ROUNDS.max]);
  // Settled but wide: on to 6 rounds (among 4 one outlying round sets the spread), then on while the most rounds
  // could still bring it to the target: ±8% over 6 could at best reach ±4% over 10, stopped; ±5% over 6 could reach
  // ±2.5%, on. The same spread with a tie still possible takes the most.
  assertEquals(rounds((ran) => ran < 6 ? 20 : 8, 1e-4), 6);
  assertEquals(rounds((ran) => ran < 8 ? 5 : 9, 1e-4), 8);
  assertEquals(rounds(() => 8, 0.01), DUET_ROUNDS.max);
  // No ratio yet (no round kept a window): on.
  assertEquals(wantsRound(4, null, plan), true);
  // A fixed count (--runs) is the least and the most.
  const wide = { n: 2, halfWidthPercent: 9, p: 0.5 };
  assertEquals([
    wantsRound(2, wide, { min: 3, max: 3, targetPercent: 3 }),
    wantsRound(3, wide, { min: 3, max: 3, targetPercent: 3 }),
  ], [true, false]);
});

Deno.test("no duet: without a fixed rate said only where asked for; with servers elsewhere always said", async () => {
  const ctx = (asked: boolean, cpuRate: number, elsewhere = false) =>
    ({
      workload: httpJson,
      variant: "default",
      settings: { cpuRate },
      asked,
      elsewhere,
    }) as unknown as DuetVariantContext;
  const two = [{ id: "a" }, { id: "b" }] as never[];
  assertEquals(await planDuets(ctx(false, 0), two), { duets: null, warning: null });
  const asked = await planDuets(ctx(true, 0), two);
  assertEquals([asked.duets, asked.warning?.code], [null, "duet-not-measured"]);
  const elsewhere = await planDuets(ctx(false, 20_000, true), two);
  assertEquals(
    elsewhere.warning?.message,
    "http-json/default: duet pairing runs on one machine (no --*-host); rounds used",
  );
});
