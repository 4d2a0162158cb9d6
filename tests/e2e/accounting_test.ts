// docs/method.md "Every request accounted for", against the real fault server (tests/fixtures/servers/fault_server.mjs,
// node:net, the same file on Node, Deno and Bun): each class of fault once through the engine, end to end — a surplus
// answer, a request never answered, a dropped connection, bytes that are not HTTP, a stall it recovers from — and each
// external load generator once against an honest server and once against faults. Every mode in both models is proven
// on the engine's fake network (tests/unit/accounting_matrix_test.ts), running the same fault code; each generator's
// reading of an honest, a wrong-answering and a dropping server, on its output recorded once
// (tests/unit/generator_output_test.ts).
import { assert, assertEquals, assertMatch } from "@std/assert";
import { run } from "../_suite.ts";
import { validateResult } from "../../runners/schema/mod.ts";
import type { BenchRecord, BenchResult } from "../../runners/schema/result.ts";
import type { RunSettings } from "../../workloads/types.ts";
import { formatTable } from "../../runners/report/table.ts";
import { faultyHttp, faultyWs, INTERIM_MODES } from "../fixtures/accounting_faults.ts";
import { assertNothingLeft, withTmp } from "../_helpers.ts";
import { condition, needs } from "../_needs.ts";
import { wrkGenerator } from "../../runners/drivers/wrk.ts";
import { ohaGenerator } from "../../runners/drivers/oha.ts";
import { bombardierGenerator } from "../../runners/drivers/bombardier.ts";
import { autocannonGenerator } from "../../runners/drivers/autocannon.ts";
import { locustGenerator } from "../../runners/drivers/locust.ts";

/**
 * Faults start 0.4 s after the server's first request (verification's): after the 0.2 s warm-up, in the 1 s window,
 * early enough that a 0.6 s stall ends inside it.
 */
const AFTER_MS = 400;
const SETTINGS: Partial<RunSettings> = { durationSec: 1, warmupSec: 0.2, runs: 1, requestTimeoutSec: 1 };
const OPEN: Partial<RunSettings> = { ...SETTINGS, rate: 1000 };

function faults(
  kind: "http" | "ws",
  variants: readonly string[],
  settings: Partial<RunSettings>,
  runtimes = ["node"],
  every = 20,
): Promise<BenchResult> {
  return withTmp(async (tmp) => {
    const result = await run({
      workloads: [kind === "http" ? faultyHttp(every, AFTER_MS) : faultyWs(every, AFTER_MS)],
      runtimes,
      variants: [...variants],
      settings,
      loadGenerator: "rtbench",
      tempDir: tmp,
    });
    assertEquals(validateResult(JSON.parse(JSON.stringify(result))), []);
    await assertNothingLeft(tmp);
    return result;
  });
}

const byVariant = (result: BenchResult) => new Map(result.records.map((r) => [r.variant, r]));
const describe = (r: BenchRecord) =>
  `${r.variant}: ${r.status} ${r.error?.message ?? ""} ${JSON.stringify(r.runs[0]?.accounting)} ${
    r.warnings.map((w) => w.code)
  }`;

/** Invalid, with the reason matching `reason`. */
function assertInvalid(r: BenchRecord, reason: RegExp): void {
  assertEquals([r.status, r.error?.phase], ["invalid", "measure"], describe(r));
  assertMatch(r.error!.message, reason, describe(r));
}

/**
 * Unanswered requests: invalid past 1%, else completed with the `unanswered` warning; either way counted, and in the
 * latency at no less than the 1 s timeout (so the percentile at their share reaches it).
 */
function assertUnanswered(r: BenchRecord): void {
  const a = r.runs[0].accounting!;
  assert(a.unanswered > 0, describe(r));
  if (r.status === "invalid") {
    assertMatch(r.error!.message, /went unanswered|connections hung|connections in use/, describe(r));
  } else {
    assertEquals(r.status, "completed", describe(r));
    assertMatch(r.warnings.find((w) => w.code === "unanswered")?.message ?? "", /went unanswered/);
  }
  const latency = r.runs[0].latencyUs!;
  const reached = a.unansweredPercent >= 1 ? latency.p99 : a.unansweredPercent >= 0.1 ? latency.p99_9 : latency.max;
  assert(reached >= 1_000_000, `${describe(r)}: ${JSON.stringify(latency)}`);
}

/** Completed, nothing unaccounted. */
function assertClean(r: BenchRecord): void {
  assertEquals(r.status, "completed", describe(r));
  const a = r.runs[0].accounting!;
  assertEquals([a.unanswered, a.unasked, a.hungConnections, a.droppedConnections], [0, 0, 0, 0], describe(r));
  assert(!r.warnings.some((w) => ["unanswered", "dropped-connections"].includes(w.code)), describe(r));
  assertEquals(r.runs[0].counts.mismatches, 0);
}

/**
 * A server that stops answering for a while (0.6 s, under the 1 s timeout) and then recovers: nothing unaccounted, and
 * the stall is in the figures (the slowest answer waited through it).
 */
function assertStall(r: BenchRecord): void {
  assertEquals(r.status, "completed", describe(r));
  const a = r.runs[0].accounting!;
  assertEquals([a.unanswered, a.unasked, a.hungConnections, a.droppedConnections], [0, 0, 0, 0], describe(r));
  assert(r.runs[0].latencyUs!.max >= 500_000, `${describe(r)}: ${JSON.stringify(r.runs[0].latencyUs)}`);
}

// Each class of fault once, and the honest answers that end or precede their own (HTTP/1.0 to the close, an announced
// Connection: close, interim responses, a chunked body), over real sockets.
Deno.test("each class of HTTP fault against the real server, closed model: invalid, or completed only with a warning naming it; honest framings clean", async () => {
  const honest = ["honest", "chunked", "http10", "close-every", ...INTERIM_MODES];
  const faulty = ["duplicate", "silent", "drop", "garbled", "stall"];
  const r = byVariant(await faults("http", [...honest, ...faulty], SETTINGS));
  for (const mode of honest) assertClean(r.get(mode)!);
  for (const mode of ["http10", "close-every"]) {
    assert(r.get(mode)!.runs[0].accounting!.announcedCloses! > 0, describe(r.get(mode)!));
  }
  // docs/method.md "Verification before any load": "content-length (none where the body is chunked)".
  const chunked = r.get("chunked")!;
  assert(chunked.verification.checks.some((c) => c.name === "GET / content-length" && c.passed), describe(chunked));
  assertInvalid(r.get("duplicate")!, /^\d+ answers came with no request in flight/);
  assertUnanswered(r.get("silent")!);
  assertInvalid(r.get("drop")!, /^the server closed \d+ connections in use/);
  assertInvalid(r.get("garbled")!, /mismatched .*not an HTTP\/1\.1 response/);
  assertStall(r.get("stall")!);
});

Deno.test("the open model against the real server: one request unanswered is a warning whose percentiles print as lower bounds, one surplus answer invalid", async () => {
  // One request in 1000 from 0.4 s on: one fault in the window, under 0.1% of its requests.
  const result = await faults("http", ["silent", "duplicate"], OPEN, ["node"], 1000);
  const r = byVariant(result);
  const silent = r.get("silent")!;
  assertEquals([silent.status, silent.runs[0].accounting!.unanswered], ["completed", 1], describe(silent));
  assert(silent.warnings.some((w) => w.code === "unanswered"), describe(silent));
  assertMatch(formatTable(result), /≥ 1\.\d\d s/, formatTable(result));
  assertInvalid(r.get("duplicate")!, /^\d+ answers came with no request in flight/);
});

Deno.test("each class of WebSocket fault against the real server: invalid, or completed only with a warning naming it", async () => {
  const r = byVariant(
    await faults("ws", ["honest", "ws-duplicate", "ws-silent", "ws-drop", "ws-corrupt", "ws-stall"], SETTINGS),
  );
  assertClean(r.get("honest")!);
  assertInvalid(r.get("ws-duplicate")!, /^\d+ answers came with no message in flight/);
  assertUnanswered(r.get("ws-silent")!);
  assertInvalid(r.get("ws-drop")!, /^the server closed \d+ connections in use/);
  assertInvalid(r.get("ws-corrupt")!, /mismatched echoes/);
  assertStall(r.get("ws-stall")!);
});

Deno.test("the fault server runs on Deno, Node and Bun alike: a duplicating server is invalid on each", async () => {
  const result = await faults("http", ["duplicate"], SETTINGS, ["deno", "node", "bun"]);
  assertEquals(result.records.map((r) => r.runtime.name), ["deno", "node", "bun"]);
  for (const r of result.records) assertInvalid(r, /^\d+ answers came with no request in flight/);
});

// docs/method.md "Every request accounted for": "wrk, oha, bombardier, autocannon and Locust do not report this". Each
// once against the honest server and once against one that drops every 20th connection, over real sockets: wrk and oha
// count the lost requests as errors; bombardier and autocannon send them again on a new connection, so the drops never
// show in their figures, and only the record's `unaccounted` warning stands between the reader and a clean result.
const SEES_DROPS: Record<string, boolean> = { wrk: true, oha: true, bombardier: false, autocannon: false };
for (const generator of [wrkGenerator, ohaGenerator, bombardierGenerator, autocannonGenerator]) {
  const here = condition(generator.name, (await generator.available()) ? null : `${generator.name} is not installed`);
  Deno.test(needs(here, {
    name: `${generator.name} cannot account for every request: its records say so, and it ${
      SEES_DROPS[generator.name] ? "sees" : "may miss"
    } a server dropping connections`,
    async fn() {
      const result = await faultsUnder(generator.name, ["honest", "drop"], GENERATOR_SETTINGS);
      for (const r of result.records) {
        // Whatever it saw, the record says what it could not: no accounting, and a warning that names it.
        assertEquals(r.loadGenerator?.accountsForRequests, false, describe(r));
        assertEquals(r.runs[0]?.accounting, undefined, describe(r));
        assertMatch(r.warnings.find((w) => w.code === "unaccounted")?.message ?? "", /does not account/, describe(r));
      }
      const [honest, drop] = ["honest", "drop"].map((m) => byVariant(result).get(m)!);
      assertEquals(outcome(honest), "clean", describe(honest));
      // One that cannot account may still notice a dropped connection by chance (bombardier read one as a non-2xx
      // once): only one that sees drops must.
      if (SEES_DROPS[generator.name]) assert(outcome(drop) !== "clean", describe(drop));
    },
  }));
}

/** A second of load after the warm-up (bombardier's shortest), faults from 0.3 s after verification on. */
const GENERATOR_SETTINGS = { durationSec: 1, warmupSec: 0.5, afterMs: 300 };
/** Locust's workers start slowly: faults from 2.5 s on, in a 3 s window. */
const LOCUST_SETTINGS = { durationSec: 3, warmupSec: 0.5, afterMs: 2500 };

/** The HTTP fault fixture under `loadGenerator`, ten connections. */
function faultsUnder(
  loadGenerator: string,
  variants: readonly string[],
  { durationSec, warmupSec, afterMs }: typeof GENERATOR_SETTINGS,
): Promise<BenchResult> {
  return withTmp(async (tmp) => {
    const result = await run({
      workloads: [faultyHttp(20, afterMs)],
      runtimes: ["node"],
      variants: [...variants],
      settings: { durationSec, warmupSec, runs: 1, connections: 10, requestTimeoutSec: 1 },
      loadGenerator,
      tempDir: tmp,
    });
    assertEquals(validateResult(JSON.parse(JSON.stringify(result))), []);
    await assertNothingLeft(tmp);
    return result;
  });
}

const LOCUST = condition("Locust", (await locustGenerator.available()) ? null : "python3 is missing");

/** How a record came out: clean, invalid, or completed with a warning naming what went wrong. */
function outcome(r: BenchRecord): string {
  if (r.status !== "completed") return r.status;
  const named = ["unanswered", "dropped-connections", "request-errors"];
  return r.warnings.some((w) => named.includes(w.code)) ? "warned" : "clean";
}

// docs/scaling-out.md "Locust": Locust's records say it does not account for every request, and a fault still does not
// pass clean under it: once honest, once requests dropped (each class under the engine is above; a wrong answer in
// Locust's recorded output, tests/unit/generator_output_test.ts).
Deno.test(needs(LOCUST, {
  name: "Locust against the fault server: honest clean, dropped requests not clean",
  async fn() {
    const locust = byVariant(await faultsUnder("locust", ["honest", "drop"], LOCUST_SETTINGS));
    for (const r of locust.values()) assert(r.warnings.some((w) => w.code === "unaccounted"), describe(r));
    assertEquals(outcome(locust.get("honest")!), "clean", describe(locust.get("honest")!));
    // Invalid past 1%, or completed with a warning naming them: a hung request holds one of Locust's slow users a
    // whole timeout, so the share depends on Locust's own rate.
    assert(["invalid", "warned"].includes(outcome(locust.get("drop")!)), describe(locust.get("drop")!));
  },
}));
