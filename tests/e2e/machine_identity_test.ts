// docs/method.md "Machines that read alike": a result records what tells its machine apart from another whose CPU model
// name reads the same (CPU vendor, family, model number, stepping, microcode, caches, hypervisor, the kernel's CPU
// mitigations) and a one-second calibration measured when the suite starts; `compare`, `trend`, `--history` and
// `--fail-on-regression` compare only within one identity and a calibration within its noise, and say why not.
// The stored pair fixtures/machines (see its README) differs only in the machine's identity. Files written before
// the identity was recorded (fixtures/results, fixtures/history) are still read and compared with each other as
// before, with a note; never with a file that has it.
import { assert, assertEquals, assertMatch, assertStringIncludes, assertThrows } from "@std/assert";
import type { BenchResult } from "../../runners/schema/result.ts";
import { readResultFile } from "../../runners/schema/read.ts";
import { validateResult } from "../../runners/schema/mod.ts";
import { compareResults, regressions } from "../../runners/report/compare.ts";
import { comparableIn, type HistoryEntry, lastComparable, readHistory } from "../../runners/report/history.ts";
import { buildTrend } from "../../runners/report/trend.ts";
import { keepAndCompare } from "../../runners/cli/_history.ts";
import { machineMatch } from "../../runners/stats/machine.ts";
import { UsageError } from "../../runners/base/mod.ts";
import { cacheSizes, identityFrom, readMachineIdentity } from "../../runners/platform/machine.ts";
import {
  CALIBRATION_ENV,
  CALIBRATION_ROUNDS,
  CALIBRATION_WORK,
  measureMachineSpeed,
} from "../../runners/drivers/calibration.ts";
import { formatTable } from "../../runners/report/table.ts";
import { formatMarkdown } from "../../runners/report/markdown.ts";
import { ROOT, runTask, withTmp } from "../_helpers.ts";

const A = `${ROOT}fixtures/machines/host-a.json`;
const B = `${ROOT}fixtures/machines/host-b.json`;
const hostA = await readResultFile(A);
const hostB = await readResultFile(B);

/** `b` with host A's identity: the pair then differs only in node's figures. */
const onHostA = (r: BenchResult): BenchResult => ({
  ...r,
  environment: { ...r.environment, machine: hostA.environment.machine },
});

Deno.test("the stored pair reads as one machine by CPU model name, CPUs and OS, and differs only in its identity", () => {
  for (const r of [hostA, hostB]) assertEquals(validateResult(r), []);
  const { machine: a, ...restA } = hostA.environment;
  const { machine: b, ...restB } = hostB.environment;
  assertEquals(restA, restB);
  assertEquals([a?.cpuModelNumber, b?.cpuModelNumber], [1, 49]);
  assertEquals(hostA.settings, hostB.settings);
});

Deno.test("compare refuses two results whose machine identity differs, naming what differs; on one identity it compares", () => {
  const error = assertThrows(() => compareResults(hostA, hostB), UsageError);
  assertMatch(error.message, /^Cannot compare: another machine: CPU model number 1 → 49, CPU stepping 2 → 0, /);
  assertStringIncludes(error.message, "microcode 0x8001250 → 0x830107a");
  assertStringIncludes(error.message, "L3 cache 8192K → 16384K");
  assertStringIncludes(error.message, "mitigation spectre_v2 ");
  // The same figures on one identity: node's drop is a regression (deno/node 1.9 → 4.66), found and flagged.
  const same = compareResults(hostA, onHostA(hostB));
  const node = same.figures.find((f) => f.runtime === "node" && f.figure === "requestsPerSecond")!;
  assertEquals(node.verdict, "slower");
  assertEquals(node.changePercent!.toFixed(1), ((1.9 / 4.66 - 1) * 100).toFixed(1));
  assertEquals(regressions(same, 5).map((f) => f.runtime), ["node"]);
});

Deno.test("deno task compare on the pair exits 2 with one line saying why, and reports no regression", async () => {
  const run = await runTask("compare", [A, B, "--fail-on-regression", "5"]);
  assertEquals(run.code, 2, run.stderr);
  assertEquals(run.stdout, "");
  const lines = run.stderr.trim().split("\n");
  assertEquals(lines.length, 1, run.stderr);
  assertMatch(
    lines[0],
    /^rtbench compare: .*host-a\.json and .*host-b\.json: Cannot compare: another machine: CPU model number 1 → 49/,
  );
  assert(!run.stderr.includes("regression"), run.stderr);
});

Deno.test("--fail-on-regression over a history passes over a result of another machine and says why", async () => {
  await withTmp(async (tmp) => {
    const history: HistoryEntry[] = [{ file: A, result: hostA }];
    assertEquals(lastComparable(history, hostB), null);
    assertEquals(comparableIn(history, hostB).passedOver.map((p) => p.file), [A]);
    const said: string[] = [];
    const failed = await keepAndCompare(`${tmp}/history`, history, hostB, `${tmp}/out.json`, 5, (l) => said.push(l));
    assertEquals(failed, false, said.join("\n"));
    const text = said.join("\n");
    assertMatch(
      text,
      /--fail-on-regression: not compared with .*host-a\.json: another machine: CPU model number 1 → 49/,
    );
    assertStringIncludes(text, "no earlier result");
    assert(!text.includes("rtbench: regression"), text);
    // On one identity the same history fails the gate: the refusal above was the identity's doing.
    const gated: string[] = [];
    assertEquals(
      await keepAndCompare(`${tmp}/h2`, history, onHostA(hostB), `${tmp}/o.json`, 5, (l) => gated.push(l)),
      true,
    );
    assertMatch(
      gated.join("\n"),
      /rtbench: regression against .*host-a\.json: http-json\/default\/node requestsPerSecond −?-5/,
    );
  });
});

Deno.test("trend marks the step between the two machines not comparable, with the reason, and flags no change", () => {
  const trend = buildTrend([{ file: A, result: hostA }, { file: B, result: hostB }]);
  assertEquals(trend.changes, []);
  const node = trend.series.find((s) => s.runtime === "node")!;
  const step = node.points[1].step!;
  assertEquals(step.verdict, "not comparable");
  assertMatch(step.note!, /^another machine: CPU model number 1 → 49/);
});

Deno.test("one identity, calibrations apart beyond their noise: not compared; within it: compared", () => {
  const calibrated = (r: BenchResult, medianMs: number): BenchResult => ({
    ...r,
    environment: { ...r.environment, calibration: { ...r.environment.calibration!, medianMs, spreadPercent: 1 } },
  });
  const b = onHostA(hostB);
  // Tolerance max(10%, 3 × (1% + 1%)) = 10%: 61.15 → 70 ms is +14.5%; → 65 ms is +6.3%.
  const slow = machineMatch(calibrated(hostA, 61.15), calibrated(b, 70));
  assertEquals(slow.comparable, false);
  assertEquals(
    slow.why,
    "the machine ran at another speed: calibration 61.15 ms → 70 ms (+14.5%), beyond its noise (±10%)",
  );
  assertThrows(() => compareResults(calibrated(hostA, 61.15), calibrated(b, 70)), UsageError, "another speed");
  assertEquals(machineMatch(calibrated(hostA, 61.15), calibrated(b, 65)).comparable, true);
  // Calibrations of another work or runtime are not set against each other: identity alone decides, with a note.
  const other = {
    ...b,
    environment: { ...b.environment, calibration: { ...b.environment.calibration!, runtime: "deno 9" } },
  };
  assertMatch(machineMatch(hostA, other).note!, /calibrations not comparable/);
});

Deno.test("stored files older than the identity are read and compared with each other as before, with a note; never with a newer file", async () => {
  const [base, head] = await Promise.all(
    ["base", "head"].map((f) => readResultFile(`${ROOT}fixtures/results/${f}.json`)),
  );
  assertEquals([base.environment.machine, base.environment.calibration, base.environment.variables], [
    undefined,
    undefined,
    undefined,
  ]);
  const c = compareResults(base, head);
  assert(c.figures.length > 0);
  assertMatch(c.notes[0], /^neither result records its machine's identity/);
  // The stored history is all older files: its trend still finds the planted node regression.
  const trend = buildTrend(await readHistory(`${ROOT}fixtures/history`));
  assertEquals(trend.changes.map((x) => [x.runtime, x.verdict]), [["node", "slower"]]);
  // An older file and a newer one: whether they ran on one machine cannot be told, so they are not compared.
  const error = assertThrows(() => compareResults(base, hostA), UsageError);
  assertEquals(
    error.message,
    "Cannot compare: the first result does not record its machine's identity (written by an older rtbench): " +
      "whether both ran on one machine cannot be told",
  );
  assertEquals(machineMatch(hostA, base).why?.startsWith("the second result"), true);
});

Deno.test("the identity is read from /proc/cpuinfo, the caches and the kernel's vulnerabilities, as the files say", async () => {
  const id = await readMachineIdentity();
  // Read here with `cat` and `ls` (Deno reads /proc and /sys only with --allow-all).
  const sh = async (...argv: string[]) =>
    new TextDecoder().decode(
      (await new Deno.Command(argv[0], { args: argv.slice(1), stdout: "piped" }).output()).stdout,
    );
  const cpuinfo = await sh("cat", "/proc/cpuinfo");
  const field = (name: string) => new RegExp(`^${name}\\s*:\\s*(.*)$`, "m").exec(cpuinfo)?.[1]?.trim() ?? null;
  assertEquals(id.cpuVendor, field("vendor_id"));
  assertEquals(id.cpuFamily, field("cpu family") === null ? null : Number(field("cpu family")));
  assertEquals(id.cpuModelNumber, field("model") === null ? null : Number(field("model")));
  assertEquals(id.microcode, field("microcode"));
  const vulnerabilities = "/sys/devices/system/cpu/vulnerabilities";
  const names = (await sh("ls", vulnerabilities)).split("\n").filter(Boolean);
  for (const name of names) assertEquals(id.mitigations[name], (await sh("cat", `${vulnerabilities}/${name}`)).trim());
  assertEquals(Object.keys(id.mitigations).length, names.length);
  const size = (await sh("cat", "/sys/devices/system/cpu/cpu0/cache/index2/size")).trim();
  if (size) assertEquals(id.caches.L2, size);
});

Deno.test("an EPYC's cpuinfo, caches and vulnerabilities as read over ssh make the same identity", () => {
  const cpuinfo = [
    "processor\t: 0",
    "vendor_id\t: AuthenticAMD",
    "cpu family\t: 23",
    "model\t\t: 1",
    "model name\t: AMD EPYC",
    "stepping\t: 2",
    "microcode\t: 0x8001250",
    "flags\t\t: fpu vme de pse hypervisor lahf_lm",
    "",
  ].join("\n");
  const caches = ["index0/level:1", "index0/type:Data", "index0/size:32K", "index3/level:3", "index3/type:Unified"]
    .concat("index3/size:8192K").map((l) => `/sys/devices/system/cpu/cpu0/cache/${l}`).join("\n");
  const id = identityFrom({
    cpuinfo,
    caches,
    vulnerabilities: "/sys/devices/system/cpu/vulnerabilities/spectre_v2:Mitigation: Retpolines; IBPB: conditional\n",
    virt: null,
  });
  assertEquals(id, {
    cpuVendor: "AuthenticAMD",
    cpuFamily: 23,
    cpuModelNumber: 1,
    cpuStepping: 2,
    microcode: "0x8001250",
    caches: { L1d: "32K", L3: "8192K" },
    // No systemd-detect-virt: the CPU's flag says a hypervisor runs, not which.
    hypervisor: "yes",
    mitigations: { spectre_v2: "Mitigation: Retpolines; IBPB: conditional" },
  });
  assertEquals(cacheSizes(""), {});
});

Deno.test("the calibration runs the fixed work pinned to one CPU and records every round, its median and spread", async () => {
  const c = await measureMachineSpeed("0");
  assertEquals([c.work, c.runtime, c.cpu, c.roundsMs.length], [
    CALIBRATION_WORK,
    `deno ${Deno.version.deno}`,
    "0",
    CALIBRATION_ROUNDS,
  ]);
  const sorted = [...c.roundsMs].sort((a, b) => a - b);
  // Ten rounds: the median is the mean of the 5th and 6th, to the recorded rounding.
  assert(Math.abs(c.medianMs - (sorted[4] + sorted[5]) / 2) < 0.002, JSON.stringify(c));
  assert(c.roundsMs.every((t) => t > 1), "a round of the fixed work takes milliseconds");
  assert(c.spreadPercent >= 0);
});

Deno.test("a suite records the identity and calibration, and the terminal report names them", async () => {
  await withTmp(async (tmp) => {
    const out = `${tmp}/r.json`;
    const bench = (calibration: string) =>
      runTask("bench", [
        ...["--workload", "startup", "--variant", "hello", "--runtime", "deno", "--runs", "1", "--duration", "0.1"],
        ...["--warmup-runs", "0", "--quiet", "--out", out],
      ], { TMPDIR: tmp, [CALIBRATION_ENV]: calibration });
    // Measured by the suite itself (the test runner hands every other suite the one it measured).
    const run = await bench("");
    assertEquals(run.code, 0, run.stderr);
    const result = await readResultFile(out);
    assertEquals(result.environment.machine, await readMachineIdentity());
    assertEquals(result.environment.calibration?.roundsMs.length, CALIBRATION_ROUNDS);
    assertMatch(formatTable(result), /\nmachine: .* family .* model .* · calibration \d+\.\d ms ±\d+\.\d%\n/);
    // The Markdown (and HTML) environment table has a row for each.
    const md = formatMarkdown(result);
    assertMatch(md, /\*\*machine identity\*\* \| .* family \d+ model \d+ stepping/);
    assertMatch(
      md,
      /\*\*calibration\*\* \| \d+\.\d ms ±\d+\.\d% \(median of 10 rounds, rtbench-calibration\/1 on deno /,
    );
    // A result compares with itself: one identity, one calibration.
    assertEquals(machineMatch(result, result), { comparable: true, why: null, note: null });
    // A calibration handed over is recorded as it was, not measured again; one that is not a calibration is refused.
    assertEquals((await bench(JSON.stringify(result.environment.calibration))).code, 0);
    assertEquals((await readResultFile(out)).environment.calibration, result.environment.calibration);
    const refused = await bench('{"work":"other"}');
    assertEquals([refused.code, refused.stderr.trim().split("\n").length], [2, 1], refused.stderr);
    assertMatch(refused.stderr, /^rtbench: RTBENCH_CALIBRATION is not a calibration of rtbench-calibration\/1/);
  });
});
