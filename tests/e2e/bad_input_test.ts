// README walk: shows claims of docs/guide.md "Faults tried" (node@999, --connections).
// Bad input tried for real: a runtime version npm does not have ends with "no such version", not npm's log path;
// connections the machine cannot carry are refused before anything starts, naming the flag; connections above the
// open-file soft limit but within the hard one work, because servers inherit the hard limit.
import { assert, assertEquals, assertMatch } from "@std/assert";
import { needs, tool } from "../_needs.ts";
import { parseResult } from "../../runners/schema/mod.ts";
import { BENCH_PERMISSIONS, ROOT, runCli, withTmp } from "../_helpers.ts";

const PRLIMIT = tool("prlimit", "apt-get install util-linux");

// docs/guide.md (Runtimes): "a version npm does not have is bad input: exit 2 naming --runtime, before anything runs".
Deno.test("--runtime node@999 and deno@notaversion: exit 2 naming --runtime, before anything runs, no file", async () => {
  for (const runtime of ["node@999", "deno@notaversion"]) {
    await withTmp(async (tmp) => {
      const cli = await runCli(
        ["-w", "http-json", "-r", runtime, "--duration", "0.5", "--warmup", "0", "--runs", "1", "--quiet"]
          .concat(["--out", `${tmp}/out/r.json`]),
        { TMPDIR: tmp, RTBENCH_CACHE_DIR: `${tmp}/cache` },
      );
      assertEquals(cli.code, 2, cli.stderr);
      const name = runtime.split("@")[0];
      assertEquals(
        cli.stderr.trim(),
        `rtbench: --runtime: ${runtime}: no such version (npm has no ${runtime}; give a version npm has, ` +
          `for example ${name}@latest)`,
      );
      assert(!(await Deno.stat(`${tmp}/out`).then(() => true, () => false)), "no result file, nor its folder");
    });
  }
});

// docs/guide.md (Faults): "--connections the machine cannot carry … one line naming the flag, exit 2, nothing started".
Deno.test("--connections 100000 is refused before anything starts, naming the flag and the limit", async () => {
  await withTmp(async (tmp) => {
    const cli = await runCli(["-w", "http-json", "-r", "deno", "--connections", "100000", "--out", `${tmp}/r.json`], {
      TMPDIR: tmp,
    });
    assertEquals(cli.code, 2, cli.stderr);
    const lines = cli.stderr.trim().split("\n");
    assertEquals(lines.length, 1, cli.stderr);
    assertMatch(
      lines[0],
      /^rtbench: --connections 100000: this machine can carry at most \d+ \((each process may open|the kernel has)/,
    );
  });
});

// docs/guide.md (Faults): "servers and load generators get the open-file hard limit (Deno raises its soft limit to
// it)".
Deno.test(needs(PRLIMIT, {
  name: "connections above the open-file soft limit: servers inherit the hard limit",
  async fn() {
    await withTmp(async (tmp) => {
      const script = `${tmp}/bench.ts`;
      // The workload file is a module the CLI loads; the server reports its own limit, which must be the hard one.
      await Deno.writeTextFile(script, `export { openFiles } from "${ROOT}tests/fixtures/open_files.ts";\n`);
      const args = ["--workload-file", script, "-w", "open-files", "-r", "node", "--connections", "1000"];
      const out = await new Deno.Command("prlimit", {
        args: [
          "--nofile=1024:4096",
          Deno.execPath(),
          "run",
          ...BENCH_PERMISSIONS,
          `${ROOT}runners/cli/bench.ts`,
          ...args,
          ...["--duration", "0.5", "--warmup", "0", "--runs", "1", "--quiet", "--json", "--out", `${tmp}/r.json`],
        ],
        cwd: ROOT,
        env: { NO_COLOR: "1", TMPDIR: tmp, OPEN_FILES_EXPECTED: "4096" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(out.stderr);
      const [record] = parseResult(new TextDecoder().decode(out.stdout)).records;
      // Node.js 20 takes 1,000 connections in slower than they come (docs/method.md "Connections never answered"): the
      // record may be invalid for the connections it left waiting, never for a file limit.
      const unserved = record.status === "invalid" && /had no first answer within/.test(record.error?.message ?? "");
      assert(record.status === "completed" || unserved, JSON.stringify(record.error) + stderr);
      assertEquals(record.verification.checks.find((c) => c.name === "GET / body")?.actual, "4096");
    });
  },
}));
