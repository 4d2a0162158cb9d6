import { assertEquals } from "@std/assert";
import { type DatedFileEvent, dateEvents, type WatchLine } from "./_file_events.ts";
import { windowCount, windowEffectCheck } from "./_window_effects.ts";

Deno.test("file events are dated between the ticks around them in the kernel's order, not by when their line came", () => {
  // Ticks every 5 ms; rtbench read the lines late (their arrival does not matter: only their order does).
  const ticks = new Map([0, 1, 2].map((n) => [n, { beforeMs: 1000 + 5 * n, afterMs: 1000 + 5 * n }]));
  const lines: WatchLine[] = [
    { kind: "create" },
    { tick: 0 },
    { kind: "create" },
    { kind: "delete" },
    { tick: 1 },
    { tick: 2 },
    { kind: "delete" },
    // A tick whose creation failed is not in the table: the events around it stay dated by the others.
    { tick: 7 },
  ];
  assertEquals(dateEvents(lines, ticks, 990, 1100), [
    { kind: "create", afterMs: 990, beforeMs: 1001 },
    { kind: "create", afterMs: 999, beforeMs: 1006 },
    { kind: "delete", afterMs: 999, beforeMs: 1006 },
    { kind: "delete", afterMs: 1009, beforeMs: 1100 },
  ]);
});

/** `n` effects evenly over [fromMs, toMs), each dated within `spreadMs`. */
function effects(n: number, fromMs: number, toMs: number, spreadMs = 5): DatedFileEvent[] {
  return Array.from({ length: n }, (_, i) => {
    const at = fromMs + (toMs - fromMs) * i / n;
    return { kind: "create", afterMs: at - spreadMs / 2, beforeMs: at + spreadMs / 2 };
  });
}

const run = { runtime: "deno", run: 0, validResponses: 5752, totalResponses: 9000, sentRequests: 9000 };
const rule = { what: "files created", inFlight: 100, unanswered: 0 };

Deno.test("window effects: the warm-up's files dated by ticks stay out of the window that arrival times put them in", () => {
  // 2 s at 5,752 files/s, the window the second second. Read 350 ms late at the window's opening and on time at its
  // close, 2,013 warm-up files arrived inside it: 7,765 by arrival, as the run that failed counted (7,764).
  const window = { startMs: 1000, durationMs: 1000, processes: [{ startMs: 1000, durationMs: 1000 }] };
  const all = effects(11504, 0, 2000);
  const count = windowCount(all, window);
  // Dated within 5 ms, and the window known to 1 ms: about 40 effects either side of the window's edges are unsure.
  assertEquals([count.least, count.estimate, count.most], [5711, 5752, 5772]);
  assertEquals(windowEffectCheck(run, count, rule, true).passed, true);
  const byArrival = all.filter((e) => e.afterMs >= 650 && e.afterMs <= 2000).length;
  assertEquals(
    windowEffectCheck(run, { least: byArrival, most: byArrival, estimate: byArrival }, rule, true).passed,
    false,
  );
});

Deno.test("window effects: each load process's own window, a busy machine opening one 400 ms after the other", () => {
  // Two processes, 1 s windows at [1000, 2000] and [1400, 2400]: the effects of both spans count, not only the first.
  const window = {
    startMs: 1000,
    durationMs: 1000,
    processes: [{ startMs: 1000, durationMs: 1000 }, { startMs: 1400, durationMs: 1000 }],
  };
  const count = windowCount(effects(2400, 0, 2400), window);
  // Surely inside both: [1401, 1999]; possibly inside either: [999, 2401] (each effect dated within ±2.5 ms).
  assertEquals([count.least, count.most], [593, 1403]);
  assertEquals(windowEffectCheck({ ...run, validResponses: 1400 }, count, rule, true).passed, true);
  // A server that wrote no file under load, or two for each request, is outside the bounds however wide.
  assertEquals(windowEffectCheck({ ...run, validResponses: 1600 }, count, rule, true).passed, false);
  assertEquals(windowEffectCheck({ ...run, validResponses: 400 }, count, rule, true).passed, false);
});

Deno.test("window effects: the bounds are the requests in flight at the edges and the unanswered, exactly", () => {
  const window = { startMs: 1000, durationMs: 1000, processes: [{ startMs: 1000, durationMs: 1000 }] };
  const at = (n: number) => ({ least: n, most: n, estimate: n });
  const check = (n: number, unanswered = 0) =>
    windowEffectCheck({ ...run, validResponses: 1000 }, at(n), { ...rule, unanswered }, true);
  assertEquals([check(900).passed, check(899).passed], [true, false]);
  assertEquals([check(1100).passed, check(1101).passed, check(1150, 50).passed], [true, false, true]);
  assertEquals([check(1100).expected, check(1100).actual], ["900 to 1100", 1100]);
  // Without the processes' windows (another generator, dated by rtbench): two per connection plus 25%.
  const loose = windowEffectCheck({ ...run, validResponses: 1000 }, at(1450), rule, false);
  assertEquals([loose.passed, loose.expected, loose.actual], [true, 1000, 1450]);
  // Effects dated to the instant, every 2 ms from 990: the engine's window is known to the millisecond either way.
  assertEquals(windowCount(effects(10, 990, 1010, 0), window), { least: 4, most: 5, estimate: 5 });
});
