// README walk: shows claims of docs/reference.md "Exit codes" (130, 143) and docs/guide.md "Nothing left running".
// SIGINT and SIGTERM at random moments of a real suite (http-json and startup on Deno and Node), 12 times:
// after each, no process rtbench started is left, no temporary path, and the result file is valid and holds
// every record that was in it just before the signal.
import { assert, assertEquals } from "@std/assert";
import { parseResult } from "../../runners/schema/mod.ts";
import type { BenchRecord } from "../../runners/schema/result.ts";
import { seededRandom } from "../../runners/stats/random.ts";
import { entries, processesWithTmpdir, spawnCli, waitFor, withTmp } from "../_helpers.ts";

const ITERATIONS = 12;
// The moments are drawn from a seeded generator, so that a failing run can be repeated: RTBENCH_TEST_SEED=<n> picks
// other moments; the seed is in every failure's message.
const SEED = Number(Deno.env.get("RTBENCH_TEST_SEED") ?? "20261125");
const draw = seededRandom(SEED);
// Half the signals come up to 10 s after the start; the other half up to 3 s after the first record was written, so
// that signals land on both sides of a finished record however long a busy machine takes to finish the first.
const DELAYS_MS = Array.from({ length: ITERATIONS }, () => Math.round(300 + draw() * 9700));
const AFTER_RECORD = (i: number) => i % 4 >= 2;
// Four at a time keep the test short; each has its own TMPDIR, so what one leaves is told apart.
const WORKERS = 4;
const SUITE = [
  "--workload",
  "http-json,startup",
  "--runtime",
  "deno,node",
  "--duration",
  "0.5",
  "--warmup",
  "0",
  "--runs",
  "1",
  "--warmup-runs",
  "1",
  // Without http-json's windows after each run (CPU at a fixed rate, idle connections), its records finish early
  // enough that some signals come after one.
  "--cpu-rate",
  "0",
  "--idle-connections",
  "0",
  "--quiet",
];

async function recordsIn(path: string): Promise<BenchRecord[] | null> {
  try {
    return [...parseResult(await Deno.readTextFile(path)).records];
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

interface Outcome {
  signal: Deno.Signal;
  delayMs: number;
  code: number;
  recordsBefore: number;
  recordsAfter: number | null;
}

async function iteration(i: number): Promise<Outcome> {
  const signal: Deno.Signal = i % 2 === 0 ? "SIGINT" : "SIGTERM";
  const delayMs = DELAYS_MS[i];
  return await withTmp(async (tmp) => {
    const out = `${tmp}/r.json`;
    const child = spawnCli([...SUITE, "--out", out], { TMPDIR: tmp });
    const output = child.output();
    let exited = false;
    output.finally(() => exited = true);
    if (AFTER_RECORD(i)) {
      await waitFor(async () => exited || ((await recordsIn(out).catch(() => null))?.length ?? 0) > 0, 120_000);
    }
    const early = exited || await Promise.race([
      output.then(() => true),
      new Promise<false>((r) => setTimeout(() => r(false), AFTER_RECORD(i) ? delayMs % 3000 : delayMs)),
    ]);
    // What was finished just before the signal must survive it.
    const before = (early ? null : await recordsIn(out)) ?? [];
    if (!early) child.kill(signal);
    const done = await output;
    const stderr = new TextDecoder().decode(done.stderr);
    const context = `iteration ${i} (seed ${SEED}): ${signal} after ${delayMs} ms, exit ${done.code}\n${stderr}`;
    const interrupted = signal === "SIGINT" ? 130 : 143;
    // The suite may have finished on its own just as the signal was sent.
    assert([interrupted, 0, 1].includes(done.code), context);
    assert(
      await waitFor(async () => (await processesWithTmpdir(tmp)).length === 0, 5000),
      `${context}\nleft running: ${(await processesWithTmpdir(tmp)).join("\n")}`,
    );
    assert(
      await waitFor(async () => (await entries(tmp)).every((name) => name === "r.json"), 5000),
      `${context}\nleft in TMPDIR: ${(await entries(tmp)).join(", ")}`,
    );
    const after = await recordsIn(out);
    if (before.length > 0) assert(after !== null, `${context}\nthe result file is gone`);
    for (const record of before) {
      const kept = after!.find((r) => r.id === record.id);
      assertEquals(kept?.status, record.status, `${context}\n${record.id} lost`);
      assertEquals(kept?.finishedAt, record.finishedAt, `${context}\n${record.id} changed`);
    }
    return { signal, delayMs, code: done.code, recordsBefore: before.length, recordsAfter: after?.length ?? null };
  });
}

// docs/guide.md "Faults tried": "SIGINT or SIGTERM at a random moment (12 times, 4 at once)".
Deno.test(`SIGINT and SIGTERM at ${ITERATIONS} random moments leave nothing running and lose no finished record`, async () => {
  const outcomes: Outcome[] = [];
  let next = 0;
  await Promise.all(Array.from({ length: WORKERS }, async () => {
    while (next < ITERATIONS) outcomes.push(await iteration(next++));
  }));
  assertEquals(outcomes.length, ITERATIONS);
  const interrupted = outcomes.filter((o) => o.code === 130 || o.code === 143);
  console.log(
    `${interrupted.length} of ${ITERATIONS} runs interrupted; records finished before the signal: ` +
      outcomes.map((o) => `${o.signal === "SIGINT" ? "INT" : "TERM"}@${o.delayMs}ms:${o.recordsBefore}`).join(" "),
  );
  // Signals must land at different moments, records finished and not, for the test to mean anything.
  assert(interrupted.length >= ITERATIONS / 2, "most runs were interrupted");
  assert(outcomes.some((o) => o.recordsBefore > 0), "some signal came after a finished record");
});
