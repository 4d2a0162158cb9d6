// runners/dev/compare_startup.ts really runs hyperfine beside rtbench's timer on the startup workload's exact commands.
import { assert, assertAlmostEquals, assertEquals, assertMatch } from "@std/assert";
import { needs, tool } from "../_needs.ts";
import { runDevTool } from "../_helpers.ts";

const HYPERFINE = tool("hyperfine", "apt-get install hyperfine");

// docs/workloads.md (Checking the timer against hyperfine): "runs the startup workload's exact commands with rtbench's
// timer and with hyperfine --shell=none … and prints each median and the ratio".
Deno.test(needs(HYPERFINE, {
  name: "compare-startup times deno's hello with rtbench's timer and with hyperfine, and prints both medians",
  async fn() {
    const out = await runDevTool(
      "compare-startup",
      ["--runtime", "deno", "--variant", "hello", "--rounds", "2"].concat([
        "--batch",
        "2",
      ]),
    );
    const text = out.stdout + out.stderr;
    assertEquals(out.code, 0, text);
    assertMatch(text, /rtbench's process timer vs hyperfine \d+\.\d+/);
    // Both medians in milliseconds, their ratio, and every round's runs by both.
    const row = /deno \S+ hello\s+([\d.]+) ms\s+([\d.]+) ms\s+([\d.]+)\s+4 \/ 4\s+(yes|NO)/.exec(text);
    if (!row) throw new Error(`no row for deno's hello: ${text}`);
    const [rtbench, hyperfine, ratio] = row.slice(1, 4).map(Number);
    assert(rtbench > 1 && hyperfine > 1 && rtbench < 10_000 && hyperfine < 10_000, row[0]);
    // The ratio is rtbench's median over hyperfine's; they agree when it is within 5% of 1.
    assertAlmostEquals(ratio, rtbench / hyperfine, 0.01 + ratio * 0.01);
    assertEquals(row[4], Math.abs(ratio - 1) <= 0.05 ? "yes" : "NO", row[0]);
  },
}));
