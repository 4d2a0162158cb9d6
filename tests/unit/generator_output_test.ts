// docs/method.md "Every request accounted for", for the external load generators: each one's real output, recorded
// once against a server that answers honestly, one that answers 500 or a wrong body, and one that closes connections
// unanswered (tests/fixtures/generator_output/README.md says how, with each tool's version and command line), goes
// through its driver's own conversion to a measurement and then through judgeHttpRun, the judge every HTTP record gets:
// what a user would be told of that server. Beside each recording, server_counts.json holds what the server did.
import { assert, assertEquals, assertMatch } from "@std/assert";
import * as hdr from "hdr-histogram-js";
import {
  autocannonMeasurement,
  type AutocannonOutput,
  bombardierMeasurement,
  type BombardierOutput,
  builtinLoadGenerators,
  type LoadMeasurement,
  mergeWorkers,
  ohaHistogram,
  ohaMeasurement,
  type OhaOutput,
  parseWrkOutput,
  wrkMeasurement,
} from "../../runners/drivers/mod.ts";
import { parseWorker } from "../../runners/drivers/_locust.ts";
import { judgeHttpRun } from "../../runners/kinds/verdict.ts";

type Mode = "honest" | "faulty" | "dropping";
type Tool = "wrk" | "oha" | "bombardier" | "autocannon" | "locust";

/** What the recording server did over a whole recording (warm-up and window). */
interface ServerCounts {
  readonly requests: number;
  readonly answered: number;
  readonly status500: number;
  readonly wrongBody: number;
  readonly closedUnanswered: number;
}

const FIXTURES = new URL("../fixtures/generator_output/", import.meta.url);
const read = (tool: Tool, mode: Mode, file: string) =>
  Deno.readTextFileSync(new URL(`${tool}/${mode}/${file}`, FIXTURES));
const json = <T>(tool: Tool, mode: Mode, file: string) => JSON.parse(read(tool, mode, file)) as T;
const serverCounts = (tool: Tool, mode: Mode) => json<ServerCounts>(tool, mode, "server_counts.json");

/** The settings Locust's recordings ran with (mergeWorkers reads only whether the load was open-model). */
const LOCUST_SETTINGS = { durationSec: 2, warmupSec: 1, connections: 2, pipelining: 1, requestTimeoutSec: 2 };
/** When the window began, which run() reads from the clock (autocannon's and Locust's recordings carry their own). */
const WINDOW_START_MS = 1_795_916_000_000;

/** Each tool's recording of `mode` as its driver turns it into a measurement. */
const MEASURE: Record<Tool, (mode: Mode) => LoadMeasurement> = {
  wrk: (mode) =>
    wrkMeasurement(
      parseWrkOutput(read("wrk", mode, "window_stdout.txt")),
      parseWrkOutput(read("wrk", mode, "warmup_stdout.txt")),
      WINDOW_START_MS,
    ),
  oha: (mode) =>
    ohaMeasurement(
      json<OhaOutput>("oha", mode, "window_stdout.txt"),
      json<OhaOutput>("oha", mode, "warmup_stdout.txt"),
      200,
      ohaHistogram(new URL(`oha/${mode}/window.db`, FIXTURES).pathname, 200),
      WINDOW_START_MS,
    ),
  bombardier: (mode) =>
    bombardierMeasurement(
      json<BombardierOutput>("bombardier", mode, "window_stdout.txt"),
      json<BombardierOutput>("bombardier", mode, "warmup_stdout.txt"),
      WINDOW_START_MS,
    ),
  autocannon: (mode) => {
    const out = json<AutocannonOutput>("autocannon", mode, "child_stdout.txt");
    return autocannonMeasurement(out.measured, out.warm, out.windowStartMs);
  },
  locust: (mode) =>
    mergeWorkers([parseWorker("worker", read("locust", mode, "worker_stdout.txt"), "")], [], LOCUST_SETTINGS),
};

/** Why the record of this run would be invalid, or null, and its warnings' codes (each tool is its generator's name). */
function verdictOf(tool: Tool, m: LoadMeasurement): [string | null, string[]] {
  const verdict = judgeHttpRun(m, [m], 0, tool);
  return [verdict.invalid, verdict.warnings.map((w) => w.code)];
}

const counts = (m: LoadMeasurement) => ({
  responses: m.responses,
  validResponses: m.validResponses,
  warmupResponses: m.warmupResponses,
  errors: m.errors,
  timeouts: m.timeouts,
  non2xx: m.non2xx,
  mismatches: m.mismatches,
});

/** The fault counts of a clean run, which each test overrides with what its recording holds. */
const NO_FAULTS = { errors: 0, timeouts: 0, non2xx: 0, mismatches: 0 };

const histogramCount = (m: LoadMeasurement) =>
  hdr.decodeFromCompressedBase64(m.latencyHistogram!, 32, false).totalCount;

Deno.test("honest server: every generator's recorded run is valid responses only, and its record is clean", () => {
  // [responses in the window, in the warm-up], as each tool printed them.
  const expected: Record<Tool, [number, number]> = {
    wrk: [818, 766],
    oha: [376, 185],
    bombardier: [872, 818],
    autocannon: [796, 726],
    locust: [1413, 746],
  };
  for (const tool of Object.keys(expected) as Tool[]) {
    const m = MEASURE[tool]("honest");
    const [window, warmup] = expected[tool];
    assertEquals(
      counts(m),
      { responses: window, validResponses: window, warmupResponses: warmup, ...NO_FAULTS },
      tool,
    );
    assertEquals(m.firstMismatch, null, tool);
    assertEquals(verdictOf(tool, m), [null, []], tool);
    const server = serverCounts(tool, "honest");
    assertEquals([server.status500, server.wrongBody, server.closedUnanswered], [0, 0, 0], tool);
  }
});

Deno.test("honest server: the latency histogram holds each valid response (wrk's, corrected, holds more)", () => {
  // oha's from the rows of its database, bombardier's rebuilt from 1,001 quantiles, autocannon's and Locust's recorded
  // response by response.
  for (const tool of ["oha", "bombardier", "autocannon", "locust"] as const) {
    const m = MEASURE[tool]("honest");
    assertEquals(histogramCount(m), m.validResponses, tool);
  }
  // wrk adds values for the requests coordinated omission delayed before its done() hook reads the histogram.
  const wrk = MEASURE.wrk("honest");
  assertEquals([wrk.validResponses, histogramCount(wrk), wrk.coordinatedOmission], [818, 823, "corrected"]);
});

Deno.test("faulty server, wrk: 500s counted in both windows, wrong bodies only in the checked warm-up; invalid", () => {
  const warm = parseWrkOutput(read("wrk", "faulty", "warmup_stdout.txt"));
  const window = parseWrkOutput(read("wrk", "faulty", "window_stdout.txt"));
  // The warm-up runs the Lua check of every response; the window counts statuses only (a status-only record).
  assertEquals([warm.checked, warm.status, warm.mismatches], [801, 80, 80]);
  assertEquals([window.checked, window.status, window.mismatches], [0, 78, 0]);
  const m = MEASURE.wrk("faulty");
  assertEquals(counts(m), {
    ...NO_FAULTS,
    responses: 779,
    validResponses: 701,
    warmupResponses: 801,
    non2xx: 158,
    mismatches: 80,
  });
  assertEquals(m.non2xx, serverCounts("wrk", "faulty").status500);
  const [invalid] = verdictOf("wrk", m);
  assertMatch(invalid!, /^80 mismatched and 158 non-2xx responses under load \(first: during warm-up: status 200, /);
  assertMatch(invalid!, /body \{"message":"Hello, Wrong!"\}\)$/);
});

Deno.test("faulty server, oha and bombardier: every 500 counted, wrong bodies unseen (no body read); invalid", () => {
  const oha = [
    json<OhaOutput>("oha", "faulty", "warmup_stdout.txt"),
    json<OhaOutput>("oha", "faulty", "window_stdout.txt"),
  ];
  assertEquals(oha.map((o) => o.statusCodeDistribution), [{ 200: 186, 500: 20 }, { 200: 390, 500: 44 }]);
  const m = MEASURE.oha("faulty");
  assertEquals(counts(m), { ...NO_FAULTS, responses: 434, validResponses: 390, warmupResponses: 206, non2xx: 64 });
  assertEquals(m.non2xx, serverCounts("oha", "faulty").status500);
  assertEquals(verdictOf("oha", m), ["0 mismatched and 64 non-2xx responses under load", []]);

  const bombardier = ["warmup_stdout.txt", "window_stdout.txt"].map((f) =>
    json<BombardierOutput>("bombardier", "faulty", f)
  );
  assertEquals(bombardier.map((o) => [o.req2xx, o.req5xx]), [[791, 87], [795, 89]]);
  const b = MEASURE.bombardier("faulty");
  assertEquals(counts(b), { ...NO_FAULTS, responses: 884, validResponses: 795, warmupResponses: 878, non2xx: 176 });
  assertEquals(b.non2xx, serverCounts("bombardier", "faulty").status500);
  assertEquals(verdictOf("bombardier", b), ["0 mismatched and 176 non-2xx responses under load", []]);
});

Deno.test("faulty server, autocannon and Locust: 500s and wrong bodies counted apart, warm-up included; invalid", () => {
  const out = json<AutocannonOutput>("autocannon", "faulty", "child_stdout.txt");
  assertEquals([out.warm!.autocannon.non2xx, out.warm!.mismatches], [73, 73]);
  assertEquals([out.measured.autocannon.non2xx, out.measured.mismatches], [76, 76]);
  const a = MEASURE.autocannon("faulty");
  assertEquals(counts(a), {
    ...NO_FAULTS,
    responses: 761,
    validResponses: 609,
    warmupResponses: 731,
    non2xx: 149,
    mismatches: 149,
  });
  assertEquals(a.non2xx, serverCounts("autocannon", "faulty").status500);
  const [invalid] = verdictOf("autocannon", a);
  assertMatch(invalid!, /^149 mismatched and 149 non-2xx responses under load \(first: during warm-up: body /);

  // Locust's status check marks a 500 with an error of its own: it is still an answer, a non-2xx, not a failed request.
  const worker = parseWorker("worker", read("locust", "faulty", "worker_stdout.txt"), "");
  const { warmup, window, late } = worker.parts;
  assertEquals([warmup.non2xx, warmup.mismatches, window.non2xx, window.mismatches], [72, 72, 145, 145]);
  assertEquals([warmup.errors, window.errors, late.errors], [0, 0, 0]);
  const l = MEASURE.locust("faulty");
  assertEquals(counts(l), {
    ...NO_FAULTS,
    responses: 1450,
    validResponses: 1160,
    warmupResponses: 721,
    non2xx: 217,
    mismatches: 217,
  });
  assertEquals([l.non2xx, l.mismatches], [
    serverCounts("locust", "faulty").status500,
    serverCounts("locust", "faulty").wrongBody,
  ]);
  assertMatch(verdictOf("locust", l)[0]!, /^217 mismatched and 217 non-2xx responses under load \(first: status 200, /);
});

Deno.test("dropping server, wrk, oha and Locust: the lost requests are failures, over 1% of them: invalid", () => {
  const warm = parseWrkOutput(read("wrk", "dropping", "warmup_stdout.txt"));
  const window = parseWrkOutput(read("wrk", "dropping", "window_stdout.txt"));
  // The warm-up's connection errors are not counted (only its non-2xx and mismatches are folded in), so 38, not 76.
  assertEquals([warm.read, window.read], [38, 38]);
  const w = MEASURE.wrk("dropping");
  assertEquals(counts(w), { ...NO_FAULTS, responses: 730, validResponses: 730, warmupResponses: 740, errors: 38 });
  assertMatch(verdictOf("wrk", w)[0]!, /^38 of 768 requests \(4\.9%\) failed \(connection errors, timeouts, /);

  // A request cut off by the end of oha's run ("aborted due to deadline") is no failure of the server's; as for wrk,
  // the warm-up's failures are not counted.
  const oha = json<OhaOutput>("oha", "dropping", "window_stdout.txt");
  assertEquals(oha.errorDistribution, {
    "aborted due to deadline": 2,
    "connection closed before message completed": 22,
  });
  const o = MEASURE.oha("dropping");
  assertEquals(counts(o), { ...NO_FAULTS, responses: 416, validResponses: 416, warmupResponses: 224, errors: 22 });
  assertMatch(verdictOf("oha", o)[0]!, /^22 of 438 requests \(5\.0%\) failed /);

  // Locust counts the warm-up's failures too: 36 there, 70 in the window, each a connection the server closed.
  const { warmup, window: locustWindow } =
    parseWorker("worker", read("locust", "dropping", "worker_stdout.txt"), "").parts;
  assertEquals([warmup.errors, locustWindow.errors], [36, 70]);
  const l = MEASURE.locust("dropping");
  assertEquals(counts(l), { ...NO_FAULTS, responses: 1333, validResponses: 1333, warmupResponses: 684, errors: 106 });
  assertEquals(l.errors, serverCounts("locust", "dropping").closedUnanswered);
  assertMatch(verdictOf("locust", l)[0]!, /^106 of 1439 requests \(7\.4%\) failed /);
});

Deno.test("dropping server, bombardier and autocannon: the lost requests go unseen; only `unaccounted` says so", () => {
  for (const tool of ["bombardier", "autocannon"] as const) {
    const m = MEASURE[tool]("dropping");
    // The server closed this many connections unanswered while the tool ran; its figures show none of them.
    assertEquals(serverCounts(tool, "dropping").closedUnanswered, tool === "bombardier" ? 75 : 76, tool);
    const [window, warmup] = tool === "bombardier" ? [720, 724] : [757, 685];
    assertEquals(counts(m), { ...NO_FAULTS, responses: window, validResponses: window, warmupResponses: warmup }, tool);
    assertEquals(verdictOf(tool, m), [null, []], tool);
    // Hence their records carry the `unaccounted` warning (runners/kinds/http.ts): they do not account for requests.
    assert(builtinLoadGenerators.find((g) => g.name === tool)!.accounts !== true, tool);
  }
  // autocannon reconnects and sends again, which shows in its latency alone: a median of 14.8 ms, against 2.4 ms.
  assertEquals([MEASURE.autocannon("dropping").latencyUs!.p50, MEASURE.autocannon("honest").latencyUs!.p50], [
    14807,
    2383,
  ]);
});
