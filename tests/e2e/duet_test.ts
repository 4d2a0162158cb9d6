// docs/method.md "Duet pairing": two servers up at once, pinned to one CPU and their engines to the other, loaded at
// the same fixed rate in the same seconds, their CPU time read from their own counters over the same windows, the CPUs
// swapping roles between rounds. Two fake servers whose work per request differs by a known factor of 2, under a noise injector that
// burns both CPUs in bursts: the duet ratio recovers the factor. (That pairing the wrong windows, not pairing, or not
// swapping fails is shown in runners/stats/duet_test.ts on counters with noise common to both CPUs: a burn server's CPU
// per request is fixed by construction, so the injector moves when its work is done, which the windows must follow.)
// Runs alone: it burns both CPUs with the noise injector and pins a server to each.
import { assert, assertEquals, assertMatch } from "@std/assert";
import { spawnGroup } from "../../runners/platform/process.ts";
import { freePort } from "../../runners/platform/ports.ts";
import { type DuetServer, type DuetSide, runDuet, startDuets } from "../../runners/suite/duet.ts";
import { assertNothingLeft, waitFor, withTmp } from "../_helpers.ts";
import { run } from "../_suite.ts";
import { validateResult } from "../../runners/schema/mod.ts";
import { duetFaults } from "../fixtures/duet_faults.ts";
import { condition, needs } from "../_needs.ts";

const FIXTURES = new URL("../fixtures/", import.meta.url).pathname;
const TWO_CPUS = condition(
  "two CPUs on Linux",
  Deno.build.os === "linux" && navigator.hardwareConcurrency >= 2
    ? null
    : "pins two servers to two CPUs and reads their control groups' counters (Linux, 2 CPUs)",
);

/** A burn server's side of a duet; `cpus` lists the CPU of each server it started, `env` adds to its environment. */
function burnSide(name: string, units: number, cpus: string[] = [], env: Record<string, string> = {}): DuetSide {
  return {
    name,
    async start(cpu: string): Promise<DuetServer> {
      cpus.push(cpu);
      const port = freePort();
      const group = spawnGroup([Deno.execPath(), "run", "-A", `${FIXTURES}burn_server.ts`], {
        cpus: cpu,
        env: { PORT: String(port), BURN_UNITS: String(units), BURN_US: "2000", ...env },
        role: "server",
      });
      const up = await waitFor(async () => {
        try {
          (await Deno.connect({ hostname: "127.0.0.1", port })).close();
          return true;
        } catch {
          return false;
        }
      }, 10_000);
      if (!up) throw new Error(`burn server ${name} did not listen: ${group.stderr()}`);
      return { baseUrl: `http://127.0.0.1:${port}`, pid: group.pid, stop: () => group.stop() };
    },
  };
}

/** What both burn servers answer: the one request, checked in full. */
function burnTarget(baseUrl: string) {
  return {
    baseUrl,
    requests: [{ path: "/", expect: { status: 200, contentType: "application/json", body: '{"ok":true}' } }],
  };
}

Deno.test(needs(TWO_CPUS, {
  name: "duet: two burn servers 2:1 under a noise injector on both CPUs; the ratio recovers 2",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const noise = ["0", "1"].map((cpu) =>
      spawnGroup([Deno.execPath(), "run", "--allow-env", `${FIXTURES}noise_injector.ts`], {
        cpus: cpu,
        env: { PERIOD_MS: "300" },
      })
    );
    // Both injectors burn until stopped: one that exited at once would leave the test without noise.
    await new Promise((r) => setTimeout(r, 500));
    assert(
      noise.every((n) => n.status === undefined),
      `noise injector exited: ${noise.map((n) => n.stderr()).join(" ")}`,
    );
    try {
      const [cpusOfA, cpusOfB]: string[][] = [[], []];
      const outcome = await runDuet(burnSide("a", 2, cpusOfA), burnSide("b", 1, cpusOfB), {
        cpus: ["0", "1"],
        rate: 40,
        windowMs: 600,
        windowsPerRound: 3,
        rounds: 4,
        warmupSec: 0.5,
        connections: 8,
        seed: 7,
        target: burnTarget,
      });
      assertEquals(outcome.rounds.length, 4);
      assertEquals(new Set(outcome.rounds.map((r) => r.placement)).size, 2, "the servers swapped CPUs");
      // `split`: both servers on one CPU each round (the engines on the other), the CPU of round k its placement's.
      assertEquals(cpusOfA, outcome.rounds.map((r) => String(r.placement)));
      assertEquals(cpusOfB, cpusOfA);
      assert(outcome.rounds.every((r) => r.held), "both held the rate in every round");
      const r = outcome.ratio!;
      assertEquals(r.pairing, "duet");
      assertEquals(r.n, 4, "every round a sample");
      // Each side's CPU per request is fixed (2 ms and 4 ms), whatever the noise did to timing; but its control group's
      // counter holds a little more than the server counts of itself, which moves the ratio by a percent either way:
      // 1.991 (±0.3%) in one run, 2.014 (±0.3%) in another, each interval short of 2. So the interval reaches 2 within 2%.
      assert(r.ci95 && r.ci95.low <= 2 * 1.02 && r.ci95.high >= 2 * 0.98, `duet ${JSON.stringify(r)}`);
      assert(r.halfWidthPercent! <= 5, `duet ±${r.halfWidthPercent!.toFixed(1)}%`);
      // Both servers were loaded in the same seconds: every window lies where both loads measured.
      for (const round of outcome.rounds) {
        const overlap =
          Math.min(round.a.windowStartMs! + round.a.durationMs, round.b.windowStartMs! + round.b.durationMs) -
          Math.max(round.a.windowStartMs!, round.b.windowStartMs!);
        assert(overlap >= 1600, `the loads overlapped ${overlap} ms`);
      }
    } finally {
      await Promise.all(noise.map((n) => n.stop()));
    }
  },
}));

Deno.test(needs(TWO_CPUS, {
  name: "duet: a round where the servers or the engines use their CPU past the limit adds no window",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    // The two servers at 40/s use 16% and 8% of their one CPU: past a limit of 10%, so no window.
    const outcome = await runDuet(burnSide("a", 2), burnSide("b", 1), {
      cpus: ["0", "1"],
      rate: 40,
      windowMs: 300,
      windowsPerRound: 2,
      rounds: 2,
      warmupSec: 0.2,
      connections: 4,
      busyLimit: 0.1,
      target: burnTarget,
    });
    assert(outcome.rounds.every((r) => r.held), "both held the rate in every round");
    for (const round of outcome.rounds) {
      const [servers] = round.busy!;
      assert(servers >= 0.2 && servers < 0.9, `the servers used ${servers} of their CPU`);
    }
    assertEquals([outcome.windows.length, outcome.ratio], [0, null]);
  },
}));

Deno.test(needs(TWO_CPUS, {
  name: "duet: a pair whose costs alone would crowd a CPU starts at the rate where they fit, and keeps that round",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    // 4 ms and 2 ms a request, as measured alone: at 300/s the servers would need 1.8 CPUs; at 100/s they use 0.6.
    const alone = (serverUs: number) => () => ({ serverUs, engineUs: 50 });
    const outcome = await runDuet({ ...burnSide("a", 2), alone: alone(4000) }, {
      ...burnSide("b", 1),
      alone: alone(2000),
    }, {
      cpus: ["0", "1"],
      rate: 300,
      windowMs: 300,
      windowsPerRound: 2,
      rounds: 1,
      warmupSec: 0.2,
      connections: 4,
      lowerRate: true,
      target: burnTarget,
    });
    assertEquals(outcome.rounds.map((r) => [r.rate, r.held]), [[100, true]]);
    assertEquals(outcome.windows.map((w) => w.round), [0, 0], "the first round's windows kept");
  },
}));

Deno.test(needs(TWO_CPUS, {
  name: "duet: a side that answers wrongly, or does not start, is at fault: its pairs stop with no ratio, others go on",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    // Every 40th request answered 500: at most one in a window of 30, so the rate is still held (97% answered
    // validly), and the windows would count the wrong answers as work done.
    const sides = [burnSide("a", 1), burnSide("b", 1), burnSide("wrong", 1, [], { BURN_WRONG_EVERY: "40" }), {
      name: "unstartable",
      start: () => Promise.reject(new Error("no port")),
    }];
    const duets = startDuets(sides, {
      cpus: ["0", "1"],
      rate: 100,
      windowMs: 300,
      windowsPerRound: 2,
      warmupSec: 0.2,
      connections: 4,
      target: burnTarget,
    });
    for (let i = 0; i < 2; i++) await duets.next();
    const byPair = new Map(duets.outcomes().map((p) => [[p.a, p.b].sort().join("+"), p.outcome]));
    const good = byPair.get("a+b")!;
    assertEquals([good.rounds.length, good.fault, good.ratio?.n], [2, undefined, 2]);
    for (const pair of ["a+wrong", "b+wrong"]) {
      const o = byPair.get(pair)!;
      assertEquals([o.ratio, o.windows.length], [null, 0], pair);
      assert(o.rounds.length <= 1, `${pair} ran ${o.rounds.length} rounds`);
      assertMatch(o.fault ?? "", /^wrong: answered wrongly in a duet round: 0 mismatched and \d+ non-2xx responses/);
    }
    for (const pair of ["a+unstartable", "b+unstartable"]) {
      assertEquals(byPair.get(pair)!.fault, "unstartable: did not start for a duet round: no port", pair);
    }
  },
}));

Deno.test(needs(TWO_CPUS, {
  name: "duet: a server that exits in a duet round, or a record found invalid, ends its pairs with a warning why",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withTmp(async (tmp) => {
      const result = await run({
        workloads: [duetFaults],
        runtimes: ["deno"],
        aa: true,
        settings: { runs: 1, durationSec: 0.3, warmupSec: 0.1, connections: 8, cpuRate: 2000 },
        tempDir: tmp,
      });
      assertEquals(validateResult(result), []);
      const statuses = result.records.map((r) => [r.id, r.status, r.duet?.length ?? 0]);
      assertEquals(statuses, [
        ["duet-faults/exits/deno#A", "completed", 0],
        ["duet-faults/exits/deno#B", "completed", 0],
        ["duet-faults/wrong/deno#A", "invalid", 0],
        ["duet-faults/wrong/deno#B", "invalid", 0],
      ]);
      const warned = (variant: string) =>
        result.warnings.find((w) => w.message.startsWith(`duet-faults/${variant}: no duet ratio`))?.message ?? "";
      assertMatch(
        warned("exits"),
        /\(duet-faults\/exits\/deno#[AB]: Server exited with code 3 during a duet round: goes_wrong_deno: exiting/,
      );
      assertMatch(warned("wrong"), /\(duet-faults\/wrong\/deno#[AB]: its record is invalid\)/);
      await assertNothingLeft(tmp);
    });
  },
}));
