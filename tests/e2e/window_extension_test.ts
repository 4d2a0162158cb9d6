// docs/method.md "Slow workloads: enough responses to rank", with a fake load generator whose counts are set here (a
// real server is started and verified for every attempt; only the load's figures are made up, so the arithmetic is
// exact).
import { assert, assertAlmostEquals, assertEquals, assertMatch } from "@std/assert";
import { run } from "../_suite.ts";
import { validateResult } from "../../runners/schema/mod.ts";
import { httpJson } from "../../workloads/http_json.ts";
import { bcrypt } from "../../workloads/bcrypt.ts";
import { loadTimeoutSec, longerWindow, windowWarning } from "../../runners/kinds/window_extension.ts";
import type { LoadGenerator, LoadMeasurement } from "../../runners/drivers/types.ts";
import { processesMatching, withTmp } from "../_helpers.ts";

/** A generator that "counts" `perSecond` valid responses a second, or what `counts` says, and records its windows. */
function counting(perSecond: (sec: number) => { valid: number; errors?: number; spanMs?: number }) {
  const windows: number[] = [];
  const urls: string[] = [];
  const generator: LoadGenerator = {
    name: "counting-fake",
    available: () => Promise.resolve(true),
    version: () => Promise.resolve("0.0.0"),
    run(target, settings): Promise<LoadMeasurement> {
      windows.push(settings.durationSec);
      urls.push(target.baseUrl);
      const { valid, errors = 0, spanMs } = perSecond(settings.durationSec);
      const durationMs = settings.durationSec * 1000;
      return Promise.resolve({
        durationMs,
        responses: valid,
        validResponses: valid,
        requestsPerSecond: valid / settings.durationSec,
        ...(spanMs !== undefined ? { countedSpanMs: spanMs } : {}),
        bytesPerSecond: 0,
        errors,
        timeouts: errors,
        non2xx: 0,
        mismatches: 0,
        firstMismatch: null,
        latencyUs: null,
        latencyHistogram: null,
        latencyResolution: "us",
        warmupResponses: 0,
        clientCpuPercent: null,
        windowStartMs: Date.now() - durationMs,
      });
    },
  };
  return { generator, windows, urls };
}

function once(generator: LoadGenerator, settings: Record<string, number> = {}) {
  return withTmp(async (tmp) => {
    const result = await run({
      workloads: [httpJson],
      runtimes: ["deno"],
      settings: { durationSec: 2, warmupSec: 0, runs: 1, requestTimeoutSec: 10, ...settings },
      loadGenerator: generator,
      tempDir: tmp,
    });
    assertEquals(validateResult(result), []);
    assertEquals(await processesMatching(tmp), []);
    return result.records[0];
  });
}

Deno.test("11 responses a second counted over 2 s: measured again over 11 s on a fresh server, the figure over that", async () => {
  const fake = counting((sec) => ({ valid: Math.round(11 * sec) }));
  const record = await once(fake.generator);
  assertEquals(record.status, "completed", JSON.stringify(record.error));
  // 22 in 2 s: 100 / 22 × 2 s = 9.09 s, a fifth to spare = 10.9 s, up to whole seconds = 11 s; 121 counted there.
  assertEquals(fake.windows, [2, 11]);
  assertEquals(record.runs[0].figures.durationMs, 11000);
  assertEquals(record.runs[0].figures.validResponses, 121);
  assertEquals(record.runs[0].figures.requestsPerSecond, 11);
  const warning = record.warnings.find((w) => w.code === "window-extended");
  assertMatch(warning?.message ?? "", /^run 1: 22 in 2 s valid responses: measured again on a fresh server over 11 s/);
  // Each attempt had its own server, verified before its load.
  assertEquals(fake.urls.length, 2);
});

Deno.test("the rate over the counted responses' span where the generator reports it, not over the window", async () => {
  // 150 responses, the first and last 1.8 s apart in a 2 s window: 149 intervals / 1.8 s = 82.78/s (not 150 / 2 = 75).
  const fake = counting(() => ({ valid: 150, spanMs: 1800 }));
  const record = await once(fake.generator);
  assertEquals(fake.windows, [2]);
  assertAlmostEquals(record.runs[0].figures.requestsPerSecond, 82.78, 0.005);
  assertEquals(record.runs[0].figures.countedSpanMs, 1800);
});

Deno.test("22 responses over a 1.9 s span of a 2 s window: the figure over the span stands, no second attempt", async () => {
  // 21 intervals / 1.9 s = 11.05/s: not a whole count over the window (22 / 2 s = 11), so it is not measured again.
  const fake = counting(() => ({ valid: 22, spanMs: 1900 }));
  const record = await once(fake.generator);
  assertEquals(fake.windows, [2]);
  assertAlmostEquals(record.runs[0].figures.requestsPerSecond, 11.05, 0.005);
  assertEquals(record.warnings.filter((w) => w.code === "window-extended"), []);
  // 10 over the span: measured again until 20 are (20 / 10 × 2 s = 4 s, a fifth to spare, whole seconds: 5 s). README
  // ("What you get"): "one that counted fewer than 20 over its span … is measured again over a window long enough".
  const few = counting((sec) => ({ valid: sec > 2 ? 25 : 10, spanMs: sec * 950 }));
  await once(few.generator);
  assertEquals(few.windows, [2, 5]);
});

Deno.test("nothing counted without errors is slowness: measured again over the request timeout; with errors it fails", async () => {
  // Nothing in 2 s, then 300 over the 10 s timeout: a slow server, measured. One connection: with http-json's 100, a
  // first request slower than 10 ms on a busy machine raises the timeout one request alone predicts past 10 s.
  const slow = counting((sec) => ({ valid: sec >= 10 ? 300 : 0 }));
  const record = await once(slow.generator, { connections: 1 });
  assertEquals(slow.windows, [2, 10]);
  assertEquals(record.status, "completed", JSON.stringify(record.error));
  assert(record.warnings.some((w) => w.message.includes("a server slower than the window is measured")));
  // Nothing, and every request timed out (one request alone predicts no longer wait): the run fails, without another
  // attempt.
  const dead = counting(() => ({ valid: 0, errors: 4 }));
  const failed = await once(dead.generator, { connections: 1 });
  assertEquals(dead.windows, [2]);
  assertEquals(failed.status, "errored");
  assertMatch(failed.error?.message ?? "", /No valid response in 2 s \(4 errors\)/);
});

Deno.test("longerWindow: every request timed out and one alone predicts a longer wait: again with that timeout", () => {
  const settings = { durationSec: 10, requestTimeoutSec: 10, connections: 100, pipelining: 1 } as never;
  const cut = { durationMs: 10_000, validResponses: 0, errors: 100, timeouts: 100, mismatches: 0, non2xx: 0 } as never;
  // Needed 300 s (10 × 100 × 300 ms): again over min(60, max(2 × 10, 300)) = 60 s.
  assertEquals(longerWindow(settings, cut, 0, 90), 60);
  // Needed no more than asked (a server fast alone that answers nothing under load): the run fails, as before.
  assertEquals(longerWindow(settings, cut, 0, 10), null);
  // A connection error among the failures is the server's answer, not slowness.
  const refused = { durationMs: 10_000, validResponses: 0, errors: 101, timeouts: 100, mismatches: 0, non2xx: 0 };
  assertEquals(longerWindow(settings, refused as never, 0, 90), null);
  // 10 × 100 connections × 300 ms = 300 s; × 2 ms = 2 s, below the 10 s asked, which stands.
  assertEquals([loadTimeoutSec(10, 100, 300), loadTimeoutSec(10, 100, 2)], [300, 10]);
});

// README (Slow workloads): "a run whose every request timed out is measured again with it too … a
// `request-timeout-raised` warning … A server that answers nothing within that timeout still fails the run".
Deno.test("a slow server whose every request timed out is measured again with the timeout one request alone predicts", async () => {
  // bcrypt's server really hashes (tens to hundreds of ms a request alone here), so 100 connections predict a wait
  // of 10 × 100 × that: over the 2 s asked. The fake load times every request out at 2 s and answers with more.
  const seen: number[] = [];
  const slow = counting(() => ({ valid: 0 }));
  const run0 = slow.generator.run.bind(slow.generator);
  slow.generator.run = (target, settings, options) => {
    seen.push(settings.requestTimeoutSec);
    return settings.requestTimeoutSec <= 2
      ? run0(target, settings, options).then((m) => ({ ...m, errors: 100, timeouts: 100 }))
      : run0(target, settings, options).then((m) => ({ ...m, responses: 300, validResponses: 300 }));
  };
  const record = await onBcrypt(slow.generator, { connections: 100, requestTimeoutSec: 2 });
  assertEquals(record.status, "completed", JSON.stringify(record.error));
  assertEquals(seen.length, 2);
  assertEquals(seen[0], 2);
  assert(seen[1] > 2, `raised to ${seen[1]} s`);
  const raised = record.warnings.find((w) => w.code === "request-timeout-raised");
  assertMatch(
    raised?.message ?? "",
    new RegExp(`^run 1: measured again with a request timeout of ${seen[1]} s, not 2 s`),
  );
  // A server that answers nothing under load at any timeout: measured again while its answer alone predicts a longer
  // wait than the last attempt had (at most the retries window_extension.ts allows), then it fails.
  const dead = counting(() => ({ valid: 0, errors: 100 }));
  const failed = await onBcrypt(dead.generator, { connections: 100, requestTimeoutSec: 2 });
  assert(dead.windows.length >= 2 && dead.windows.length <= 5, `${dead.windows}`);
  assertEquals(failed.status, "errored");
  assertMatch(failed.error?.message ?? "", /No valid response in \d+ s \(100 errors\)/);
});

async function onBcrypt(generator: LoadGenerator, settings: Record<string, number>) {
  return await withTmp(async (tmp) => {
    const result = await run({
      workloads: [bcrypt],
      runtimes: ["deno"],
      variants: ["bcryptjs"],
      settings: { durationSec: 2, warmupSec: 0, runs: 1, ...settings },
      loadGenerator: generator,
      tempDir: tmp,
    });
    assertEquals(validateResult(result), []);
    assertEquals(await processesMatching(tmp), []);
    return result.records[0];
  });
}

Deno.test("the warning gives windows to the millisecond: an engine's window summed from parts reads 2 s, not 2.0000000000000004 s", () => {
  // As a real run of node's bcryptjs reported them (the merged engine processes' window is a float sum).
  const short = { durationMs: 2000.0000000000004, validResponses: 18 } as never;
  const long = { durationMs: 13999.999999999998, validResponses: 158 } as never;
  assertMatch(
    windowWarning(2, [short], long).message,
    /^run 3: 18 in 2 s valid responses: measured again on a fresh server over 14 s \(158 valid responses\)/,
  );
});
