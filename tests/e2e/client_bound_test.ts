// README walk: shows claims of docs/method.md "Resources and `client-bound`" (client-bound, client-saturated) and the ≥/≤ ratios of "What you get".
// Client-bound detection on a real server with a fake load generator sampled
// like any other: one that burns its CPU between requests is flagged, one that
// sleeps instead is not, and the table shows the warning next to the number.
// Runs alone: it asserts which side was at its CPU limit.
import { assert, assertEquals, assertExists, assertMatch } from "@std/assert";
import { clientBoundWarning, clientSaturatedWarning } from "../../runners/stats/saturation.ts";
import { groupRecords, relativeText } from "../../runners/report/_groups.ts";
import { readResultFile } from "../../runners/schema/read.ts";
import { formatMarkdown } from "../../runners/report/markdown.ts";
import { run } from "../_suite.ts";
import { formatTable } from "../../runners/report/table.ts";
import { validateResult } from "../../runners/schema/mod.ts";
import { httpJson } from "../../workloads/http_json.ts";
import { lazyGenerator, slowGenerator } from "../fixtures/fake_generators.ts";
import { assertNothingLeft, withTmp } from "../_helpers.ts";

const settings = { durationSec: 1.5, warmupSec: 0, runs: 1 };

Deno.test("a deliberately slow load generator is flagged client-bound", async () => {
  await withTmp(async (tmp) => {
    const result = await run({
      workloads: [httpJson],
      runtimes: ["deno"],
      settings,
      loadGenerator: slowGenerator,
      tempDir: tmp,
    });
    assertEquals(validateResult(result), []);
    const [record] = result.records;
    assertEquals(record.status, "completed", JSON.stringify(record.error));
    assertEquals(record.loadGenerator?.name, "slow-fake");
    const client = record.resources?.client;
    assertExists(client, "the generator's process was sampled");
    assert(client!.threads.peak >= 1 && client!.rssBytes.peak > 0);
    const warning = record.warnings.find((w) => w.code === "client-bound");
    assertExists(
      warning,
      `expected client-bound, got ${JSON.stringify(record.warnings)} ${JSON.stringify(record.resources)}`,
    );
    assert(warning!.message.includes("slow-fake"));
    // A client at its limit makes the figure a bound, whatever the server did.
    assertMatch(record.warnings.find((w) => w.code === "client-saturated")?.message ?? "", /slow-fake was at \d+% /);
    const line = formatTable(result).split("\n").find((l) => l.startsWith("deno "));
    assert(line?.includes("⚠ client-bound"), `the table row carries the warning: ${line}`);
    await assertNothingLeft(tmp);
  });
});

Deno.test("a load generator that waits instead of working is not flagged", async () => {
  await withTmp(async (tmp) => {
    const result = await run({
      workloads: [httpJson],
      runtimes: ["deno"],
      settings,
      loadGenerator: lazyGenerator,
      tempDir: tmp,
    });
    const [record] = result.records;
    assertEquals(record.status, "completed", JSON.stringify(record.error));
    assertExists(record.resources?.client, "the generator's process was sampled");
    assertEquals(record.warnings.filter((w) => w.code === "client-bound"), []);
  });
});

// docs/method.md (Resources and client-bound): "both sides at their limit … `client-saturated` … the ratio is marked ≥
// (or ≤)".
Deno.test("client and server both at 90%+: client-saturated, not client-bound, and ratios become bounds in reports", async () => {
  const cpus = { server: "0", client: "1" };
  // A client-bound run: wrk at 98% of its core, Deno at 99% of its own.
  const both = [{ client: 0.98, server: 0.99, clientBound: false }, { client: 0.97, server: 0.98, clientBound: false }];
  assertEquals(clientBoundWarning(both, "wrk", cpus), null);
  assertMatch(
    clientSaturatedWarning(both, "wrk", cpus)!.message,
    /^wrk was at 97% of its limit \(1 CPU\) in 2 of 2 runs/,
  );
  assertEquals(clientSaturatedWarning([{ client: 0.6, server: 0.99, clientBound: false }], "wrk", cpus), null);

  const head = await readResultFile(new URL("../../fixtures/results/head.json", import.meta.url).pathname);
  const saturated = { code: "client-saturated", message: "wrk was at 98% of its limit" };
  const mark = (name: string) => ({
    ...head,
    records: head.records.map((r) =>
      r.runtime.name === name && r.runtime.requested === name ? { ...r, warnings: [...r.warnings, saturated] } : r
    ),
  });
  const relative = (result: typeof head, name: string) => {
    const [group] = groupRecords(result);
    return relativeText(group, group.ranked.find((r) => r.record.runtime.requested === name)!);
  };
  // The leader's figure is a lower bound: it leads by at least this.
  assertMatch(relative(mark("deno"), "deno"), /^≥ \d\.\d\d× node \(\d\.\d\d–\d\.\d\d\)$/);
  // The baseline's figure is a lower bound: the others lead it by at most this.
  assertMatch(relative(mark("node"), "deno"), /^≤ \d\.\d\d× node \(\d\.\d\d–\d\.\d\d\)$/);
  // docs/method.md (Resources and client-bound): "`≷` when both are": neither way is known.
  const markBoth = (result: typeof head) => ({
    ...result,
    records: result.records.map((r) =>
      r.runtime.name === "node" && r.runtime.requested === "node" ? { ...r, warnings: [...r.warnings, saturated] } : r
    ),
  });
  assertMatch(relative(markBoth(mark("deno")), "deno"), /^≷ \d\.\d\d× node \(\d\.\d\d–\d\.\d\d\)$/);
  assertMatch(formatMarkdown(mark("deno")), /\| ≥ \d\.\d\d× node \(\d\.\d\d–\d\.\d\d\) \|/);
});
