// docs/results.md is what runners/dev/results_page.ts makes of the result files it records, so it cannot drift from
// them or from the report's own text; and a page made from a stored result holds its date and its overview.
import { assert, assertEquals } from "@std/assert";
import { EXPORTERS } from "../report/mod.ts";
import { readResultFile } from "../schema/mod.ts";
import { generate, KEPT_HEADING, keptPart, PAGE, recordedInputs } from "./results_page.ts";

const ROOT = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");

Deno.test("results page: each result's date, duration, versions and overview, newest first", async () => {
  const paths = ["fixtures/results/server-cpus-1.json", "fixtures/results/base.json"];
  const page = await generate(paths, "", ROOT);
  assertEquals(recordedInputs(page), paths);
  let last = -1;
  for (const path of ["fixtures/results/server-cpus-1.json", "fixtures/results/base.json"]) {
    const result = await readResultFile(`${ROOT}/${path}`);
    const heading = `## ${result.startedAt.slice(0, 10)} ${result.startedAt.slice(11, 16)} UTC`;
    const at = page.indexOf(heading);
    assert(at > last, `${heading} after the newer result`);
    last = at;
    const overview = EXPORTERS.table.render(result).split("\n\nKey findings:")[0];
    assert(overview.startsWith("At a glance") && page.includes(overview), `${path}'s overview`);
    assert(page.includes(`harness deno ${result.environment.harness.deno}`));
    for (const r of result.records) assert(page.includes(`${r.runtime.name} ${r.runtime.version}`));
  }
  assert(page.includes("- took 36 s; 3 of 3 records completed"), page);
  assert(page.endsWith(`${KEPT_HEADING}\n\nNothing yet.\n`));
  assert(!page.includes("\nhttp-json (default) · "), "no workload's section");
});

Deno.test("results page: the committed docs/results.md is what the command makes of its recorded inputs", async () => {
  const committed = await Deno.readTextFile(`${ROOT}/${PAGE}`);
  const inputs = recordedInputs(committed);
  assert(inputs.length > 0, "docs/results.md records its inputs");
  assert(keptPart(committed).startsWith(KEPT_HEADING));
  assertEquals(
    committed,
    await generate(inputs, committed, ROOT),
    "docs/results.md differs from what the command makes: run deno run -A runners/dev/results_page.ts",
  );
});
