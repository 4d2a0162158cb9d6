// docs/reference.md "Benchmark servers you already have": servers written for no benchmark run through a workload file
// unedited — their own content types (two spellings of text/plain) and headers verified before load and under load, a
// parent-relative import staged where it is found, a server on a port of its own named within 3 s, and
// `--workload-file` alone running the file's workloads only. The section's files are tests/fixtures/own_servers/.
import { assert, assertEquals, assertMatch } from "@std/assert";
import { run } from "../_suite.ts";
import { parseCli } from "../../runners/cli/bench.ts";
import { knownWorkloads } from "../../runners/cli/_bench_request.ts";
import { freePort } from "../../runners/platform/mod.ts";
import { parseResult } from "../../runners/schema/mod.ts";
import type { HttpWorkload } from "../../workloads/types.ts";
import { ownServers } from "../fixtures/own_servers/servers.ts";
import { assertNothingLeft, ROOT, runCli, withTmp } from "../_helpers.ts";
import { docSection } from "../_docs.ts";

const FIXTURE = "tests/fixtures/own_servers/";
const SHORT = { durationSec: 0.3, warmupSec: 0, runs: 1, startTimeoutSec: 10 };

Deno.test("the files of docs/reference.md's section are the tested fixture, byte for byte", async () => {
  const text = docSection("docs/reference.md", "## Benchmark servers you already have");
  const blocks = [...text.matchAll(/^```\w+ title="([^"]+)"\n([\s\S]*?)^```$/gm)].map((m) => [m[1], m[2]]);
  assertEquals(blocks.map(([name]) => name).sort(), ["app/main.mjs", "fixed_port.mjs", "routes.mjs", "servers.ts"]);
  for (const [name, code] of blocks) assertEquals(code, await Deno.readTextFile(`${ROOT}${FIXTURE}${name}`), name);
});

Deno.test("servers run unedited: media types and headers checked, a parent import staged, a fixed port named", async () => {
  // The fixed-port server listens on APP_PORT (3000 without it): a free port here, so that no other test holds it.
  const appPort = freePort();
  const theirs: HttpWorkload = { ...ownServers, setup: () => Promise.resolve({ env: { APP_PORT: String(appPort) } }) };
  const wrongHeader: HttpWorkload = {
    ...ownServers,
    name: "own-servers-wrong-header",
    variants: ownServers.variants.filter((v) => v.name === "app"),
    traffic: (ctx) => ({
      requests: ownServers.traffic(ctx).requests.map((r) =>
        r.expect.headers ? { ...r, expect: { ...r.expect, headers: { "cache-control": "max-age=60" } } } : r
      ),
    }),
  };
  await withTmp(async (tmp) => {
    const result = await run({
      workloads: [theirs, wrongHeader],
      runtimes: ["node"],
      settings: SHORT,
      loadGenerator: "rtbench",
      tempDir: tmp,
    });
    const [app, fixed, wrong] = result.records;
    const failed = (r: typeof app) => r.verification.checks.filter((c) => !c.passed);

    // text/plain; charset=UTF-8 and text/plain;charset=utf-8 both pass "text/plain", before load and under load.
    assertEquals([app.status, failed(app)], ["completed", []], JSON.stringify(app.error));
    const checked = (name: string) => app.verification.checks.find((c) => c.name === name)?.actual;
    assertEquals(checked("GET /hello content-type"), "text/plain; charset=UTF-8");
    assertEquals(checked("GET /items/7?fields=name content-type"), "text/plain;charset=utf-8");
    assertMatch(String(checked("GET /items/7?fields=name x-request-id")), /^[0-9a-f-]{36}$/);
    assert(app.runs[0].figures.validResponses > 0);
    assertEquals(app.runs[0].counts.mismatches, 0);
    // app/main.mjs ran where its ../routes.mjs was staged.
    assertMatch(app.command!.at(-1)!, /\/app\/main\.mjs$/);

    assertEquals([fixed.status, fixed.error?.phase], ["errored", "start"]);
    const port = /PORT=(\d+)/.exec(fixed.error!.message)?.[1];
    assertEquals(
      fixed.error!.message,
      `Server listens on ${appPort}, not on the port given in PORT=${port}: make it read PORT, ` +
        `or run it with --port ${appPort}`,
    );
    const tookMs = Date.parse(fixed.finishedAt) - Date.parse(fixed.startedAt);
    assert(tookMs < 3000, `the fixed port was named after ${tookMs} ms`);

    assertEquals([wrong.status, wrong.error?.phase, wrong.runs], ["invalid", "verify", []]);
    assertEquals(failed(wrong).map((c) => [c.name, c.expected, c.actual]), [
      ["GET /items/7?fields=name cache-control", "max-age=60", "no-store"],
    ]);
    await assertNothingLeft(tmp);
  });
});

Deno.test("--workload-file alone runs the file's workloads only, and --port runs a fixed-port server unedited", async () => {
  const port = freePort();
  const args = ["--workload-file", `${FIXTURE}servers.ts`, "--runtime", "node", "--port", String(port)];
  // Refused at once on the old reading, which added the file's workloads to the whole suite.
  const request = parseCli(args, await knownWorkloads(args));
  assertEquals([request.workloads.map((w) => w.name), request.wholeSuite], [["own-servers"], undefined]);
  await withTmp(async (tmp) => {
    const out = `${tmp}/r.json`;
    const settings = ["--runs", "1", "--duration", "0.3", "--warmup", "0", "--quiet", "--out", out];
    // The fixed-port server takes its port from APP_PORT, which --pass-env lets through: the one --port gives.
    const cli = await runCli([...args, "--pass-env", "APP_PORT", ...settings], { TMPDIR: tmp, APP_PORT: String(port) });
    assertEquals(cli.code, 0, cli.stderr);
    const records = parseResult(await Deno.readTextFile(out)).records;
    assertEquals(records.map((r) => [r.workload, r.variant, r.status]), [
      ["own-servers", "app", "completed"],
      ["own-servers", "fixed-port", "completed"],
    ]);
    await assertNothingLeft(tmp, ["r.json"]);
  });
});
