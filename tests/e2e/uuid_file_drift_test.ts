// docs/workloads.md "uuid-file": every run starts from the same state (the data directory made anew under a name of its
// own, on ext4 in a block group of its own, its filesystem synced), the record says where the files live, and
// consecutive runs of one runtime show no monotone trend beyond noise. On ext4 the figures used to fall run after run
// for every runtime (deno 3,700 → 3,526 → 2,126 requests/s, its CPU time per request 242 → 450 µs): ext4 steps over
// every inode number freed in the last minute when it allocates one, and each run freed tens of thousands.
// Runs alone: a trend test on six consecutive runs, which a neighbour's load would make.
import { assert, assertEquals, assertMatch } from "@std/assert";
import { run } from "../_suite.ts";
import { kendallTrend } from "../../runners/stats/drift.ts";
import { uuidFile } from "../../workloads/uuid_file.ts";
import { withTmp } from "../_helpers.ts";
import { condition, needs, tool } from "../_needs.ts";

const LINUX = condition("Linux", Deno.build.os === "linux" ? null : "reads the kernel's own CPU counters (Linux only)");
// chattr spreads each run's directory over ext4's block groups; without it an ext4 run starts where the last one left.
const CHATTR = tool("chattr", "apt-get install e2fsprogs");

Deno.test(needs([LINUX, CHATTR], {
  name: "uuid-file: six consecutive runs of one runtime show no falling trend (Mann–Kendall, α = 0.01)",
  fn: async () => {
    await withTmp(async (tmp) => {
      const result = await run({
        workloads: [uuidFile],
        runtimes: ["deno"],
        variants: ["default"],
        settings: { runs: 6, durationSec: 1.5, warmupSec: 0.3 },
        tempDir: tmp,
      });
      const [record] = result.records;
      assertEquals(record.status, "completed", JSON.stringify(record.error));
      // Where the files lived, for the reader of the record.
      assert(["memory", "disk"].includes(String(record.facts.dataDirStorage)), JSON.stringify(record.facts));
      assertMatch(String(record.facts.dataDirMount), /^\/\S* \(\w+, [^)]*\)$/);
      const spread = "made anew, in a block group of its own (chattr +T on its parent), and its filesystem synced " +
        "before every run";
      if (record.facts.dataDirFilesystem === "ext4") assertEquals(record.facts.dataDirReset, spread);
      else assertMatch(String(record.facts.dataDirReset), /^made anew.* synced before every run$/);
      // Six runs each below (above) the one before are 2 of 720 orderings (p = 0.0028): only a steady trend fails this.
      // The server's CPU time per request shows the state a run inherits most directly (requests/s also moves with the
      // disk's waits and the machine's other work): on ext4, in a directory of the same block group every run, it rose
      // run after run (242 → 260 → 450 µs for deno).
      for (const [figure, worse] of [["requestsPerSecond", -1], ["serverCpuUsPerRequest", 1]] as const) {
        const values = record.runs.map((r) => r.figures[figure]);
        const trend = kendallTrend(values);
        assert(
          !(Math.sign(trend.tau) === worse && trend.p < 0.01),
          `${figure} moved steadily one way: ${values.join(" → ")} (τ ${trend.tau}, p ${trend.p})`,
        );
      }
    });
  },
}));
