// README walk: shows claims of docs/workloads.md "The `uuid-file` and `bcrypt` workloads", from the command line.
// The command, shortened: uuid-file and bcrypt on every runtime from the
// command line, a valid result file, a table per workload showing every runtime.
import { assert, assertEquals, assertMatch } from "@std/assert";
import { parseResult } from "../../runners/schema/mod.ts";
import { assertNothingLeft, runCli, withTmp } from "../_helpers.ts";

Deno.test("bench --workload uuid-file,bcrypt --bcrypt-cost 4 on deno,node,bun: all completed, tables show every runtime", async () => {
  await withTmp(async (tmp) => {
    const out = `${tmp}/r.json`;
    const run = await runCli([
      ...["--workload", "uuid-file,bcrypt", "--variant", "default,bcryptjs", "--runtime", "deno,node,bun"],
      ...["--bcrypt-cost", "4", "--duration", "0.3", "--warmup", "0", "--runs", "1", "--out", out],
    ], { TMPDIR: tmp });
    assertEquals(run.code, 0, run.stderr + run.stdout);
    const result = parseResult(await Deno.readTextFile(out));
    assertEquals(result.records.map((r) => `${r.id} ${r.status}`), [
      "uuid-file/default/deno completed",
      "uuid-file/default/node completed",
      "uuid-file/default/bun completed",
      "bcrypt/bcryptjs/deno completed",
      "bcrypt/bcryptjs/node completed",
      "bcrypt/bcryptjs/bun completed",
    ]);
    for (const r of result.records.filter((r) => r.workload === "bcrypt")) {
      assertEquals(r.options["bcrypt-cost"], 4);
      assert(
        r.verification.checks.some((c) =>
          c.name.endsWith("body pattern") && c.expected === '/\\{"hash":"\\$2b\\$04\\$[./A-Za-z0-9]{53}"\\}/'
        ),
      );
    }
    // Each workload's section starts with its settings line (the overview's rows before it carry no " · " settings).
    const sections = run.stdout.split(/\n(?=(?:uuid-file|bcrypt) \([^)]*\) · )/).slice(1);
    assertEquals(sections.length, 2);
    for (const section of sections) {
      for (const name of ["deno", "node", "bun"]) assertMatch(section, new RegExp(`^${name} \\d`, "m"));
    }
    await assertNothingLeft(tmp, ["r.json"]);
  });
});
