// README "What the numbers mean": a record measured once (the default suite measures postgres, install and fs once)
// carries a `single-run` warning, shown wherever its warnings are: its ratios are one measurement, not a ranking.
import { assertEquals, assertStringIncludes } from "@std/assert";
import { run } from "../_suite.ts";
import { formatMarkdown } from "../../runners/report/mod.ts";
import { formatCsv } from "../../runners/report/csv.ts";
import { startup } from "../../workloads/startup.ts";
import { withTmp } from "../_helpers.ts";

Deno.test("a record measured once is marked single-run in the result and every report; two runs are not", async () => {
  await withTmp(async (tmp) => {
    const common = { workloads: [startup], runtimes: ["deno", "node"], variants: ["hello"], tempDir: tmp };
    const options = { "warmup-runs": 0 };
    const once = await run({ ...common, options, settings: { runs: 1, durationSec: 0.001 } });
    for (const r of once.records) {
      assertEquals(r.status, "completed", JSON.stringify(r.error));
      assertEquals(r.runs.length, 1);
      assertEquals(r.warnings.filter((w) => w.code === "single-run").length, 1, r.id);
    }
    const md = formatMarkdown(once);
    assertStringIncludes(md, "⚠ single-run");
    assertStringIncludes(formatCsv(once), "single-run");
    const twice = await run({ ...common, options, settings: { runs: 2, durationSec: 0.001 } });
    for (const r of twice.records) assertEquals(r.warnings.some((w) => w.code === "single-run"), false, r.id);
  });
});
